package io.capstream.aggregator.window;

import io.capstream.schemas.avro.ServerWindowState;
import io.capstream.schemas.serde.AvroBinarySerde;
import org.apache.avro.specific.SpecificData;

/**
 * Plain Avro binary encoding of a {@link ServerWindowState} for the store {@link WindowTopology#SERVER_STORE}
 * and its changelog ({@link AvroBinarySerde}: no registry, no header; the schema is in
 * {@code schemas/src/main/avro/ServerWindowState.avsc}). Thread-safe.
 */
public final class ServerWindowStateSerde extends AvroBinarySerde<ServerWindowState> {
    /** A serde over the compiled ServerWindowState schema. */
    public ServerWindowStateSerde() {
        super(ServerWindowState.getClassSchema(), SpecificData.getForClass(ServerWindowState.class));
    }
}

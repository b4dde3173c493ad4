package io.capstream.aggregator.report.state;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.AvroBinarySerde;
import io.capstream.schemas.serde.CustomCoderModels;

/**
 * Plain Avro binary encoding of a {@link RunEvent} for the report topology's internal state store and
 * its changelog ({@link AvroBinarySerde}: same-version data, no registry). The payload records are
 * (de)serialised with their generated custom coders (same encoding, no generic per-field reflection;
 * writer and reader schema are identical here). Thread-safe.
 */
public final class RunEventBinarySerde extends AvroBinarySerde<RunEvent> {
    /** A serde over the compiled RunEvent schema with the custom coders. */
    public RunEventBinarySerde() {
        super(RunEvent.getClassSchema(), CustomCoderModels.forClass(RunEvent.class));
    }
}

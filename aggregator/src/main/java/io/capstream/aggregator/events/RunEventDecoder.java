package io.capstream.aggregator.events;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.SchemaRegistryClient;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import io.capstream.schemas.serde.AvroWireFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Decodes {@link RunEvent}s in the Confluent wire format (magic byte, 4-byte schema id, Avro
 * binary) exactly like {@code SpecificAvroSerde}, but keeps one resolved datum reader per writer
 * schema id and reuses the binary decoder: Avro's schema resolution runs once per schema instead of
 * once per record (it dominated the report topology's CPU profile). Not thread-safe: one instance
 * per stream task.
 */
final class RunEventDecoder {
    private final SchemaRegistryClient registry;
    private final Schema readerSchema = RunEvent.getClassSchema();
    private final Map<Integer, SpecificDatumReader<RunEvent>> readers = new HashMap<>();
    private BinaryDecoder decoder;

    /**
     * @param registry the registry client (may be shared: its cache then serves every decoder given it); not null
     */
    RunEventDecoder(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /**
     * @param topic source topic (for messages)
     * @param bytes wire-format bytes; not null
     * @return the event
     * @throws SchemaRegistryUnavailableException when the writer schema is not cached and the registry
     *                                            gave no answer (connection error, timeout, 5xx): the
     *                                            bytes may be valid; try again later
     * @throws SerializationException             when the bytes are not a RunEvent in the wire format,
     *                                            or the registry answered that the schema id is
     *                                            unknown (404) or not a usable Avro schema
     */
    RunEvent decode(String topic, byte[] bytes) {
        try {
            int id = AvroWireFormat.schemaId(bytes);
            SpecificDatumReader<RunEvent> reader = readers.get(id);
            if (reader == null) {
                Schema writer = registry.getById(id);
                reader = new SpecificDatumReader<>(writer, readerSchema);
                readers.put(id, reader);
            }
            decoder = DecoderFactory.get().binaryDecoder(bytes, AvroWireFormat.HEADER_LENGTH,
                    bytes.length - AvroWireFormat.HEADER_LENGTH, decoder);
            RunEvent event = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new IllegalArgumentException((bytes.length - AvroWireFormat.HEADER_LENGTH) + " bytes of which"
                        + " some are left over after the record");
            }
            return event;
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // says nothing about the bytes: the caller waits for the registry
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot decode RunEvent from topic " + topic + ": " + e.getMessage(), e);
        }
    }
}

package io.capstream.aggregator.report.state;

import io.capstream.schemas.avro.RunEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Plain Avro binary encoding of a {@link RunEvent} (no registry, no wire-format header) for the
 * report topology's internal state store and its changelog. Writer and reader schema are the
 * compiled {@code RunEvent} schema, so state written by one capstream version is read by the same
 * version (the store is rebuilt from the changelog of the same application). Thread-safe.
 */
public final class RunEventBinarySerde implements Serde<RunEvent> {
    private final SpecificDatumWriter<RunEvent> writer = new SpecificDatumWriter<>(RunEvent.class);
    private final SpecificDatumReader<RunEvent> reader = new SpecificDatumReader<>(RunEvent.class);

    @Override
    public Serializer<RunEvent> serializer() {
        return (topic, event) -> {
            if (event == null) {
                return null;
            }
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream(128);
                BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
                synchronized (writer) {
                    writer.write(event, enc);
                }
                enc.flush();
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Override
    public Deserializer<RunEvent> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                BinaryDecoder dec = DecoderFactory.get().binaryDecoder(bytes, null);
                synchronized (reader) {
                    return reader.read(null, dec);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}

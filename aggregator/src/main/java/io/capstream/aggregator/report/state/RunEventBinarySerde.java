package io.capstream.aggregator.report.state;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.CustomCoderModels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Plain Avro binary encoding of a {@link RunEvent} (no registry, no wire-format header) for the
 * report topology's internal state store and its changelog. Writer and reader schema are the
 * compiled {@code RunEvent} schema, so state written by one capstream version is read by the same
 * version (the store is rebuilt from the changelog of the same application). Thread-safe: the
 * datum writer/reader and buffers are per thread (a serde instance is shared by the stream tasks).
 * The payload records are (de)serialised with their generated custom coders (same encoding, no
 * generic per-field reflection; writer and reader schema are identical here).
 */
public final class RunEventBinarySerde implements Serde<RunEvent> {
    private final ThreadLocal<Codec> codec = ThreadLocal.withInitial(Codec::new);

    /** RunEvent's own model (its logical-type conversions) with the generated custom coders enabled. */
    private static final SpecificData MODEL = CustomCoderModels.forClass(RunEvent.class);

    /** One thread's reusable Avro objects. */
    private static final class Codec {
        final SpecificDatumWriter<RunEvent> writer = new SpecificDatumWriter<>(RunEvent.getClassSchema(), MODEL);
        final SpecificDatumReader<RunEvent> reader =
                new SpecificDatumReader<>(RunEvent.getClassSchema(), RunEvent.getClassSchema(), MODEL);
        final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder;
        BinaryDecoder decoder;
    }

    @Override
    public Serializer<RunEvent> serializer() {
        return (topic, event) -> {
            if (event == null) {
                return null;
            }
            Codec c = codec.get();
            try {
                c.out.reset();
                c.encoder = EncoderFactory.get().binaryEncoder(c.out, c.encoder);
                c.writer.write(event, c.encoder);
                c.encoder.flush();
                return c.out.toByteArray();
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
            Codec c = codec.get();
            try {
                c.decoder = DecoderFactory.get().binaryDecoder(bytes, c.decoder);
                return c.reader.read(null, c.decoder);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}

package io.capstream.aggregator.sweep;

import io.capstream.schemas.avro.SweepCurve;
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
 * Plain Avro binary encoding of a {@link SweepCurve} (no registry, no wire-format header) for the
 * sweep topology's internal topics: the repartition topic (one-point curves keyed by sweep id) and
 * the changelog of {@link SweepTopology#STORE}. Like the report topology's state serdes, writer and
 * reader schema are the compiled {@code SweepCurve} schema, and no schema is registered for an
 * internal topic (a throwaway application id would otherwise leave subjects in the registry).
 * Thread-safe: the datum writer/reader and buffers are per thread.
 */
public final class SweepCurveBinarySerde implements Serde<SweepCurve> {
    private final ThreadLocal<Codec> codec = ThreadLocal.withInitial(Codec::new);

    /** One thread's reusable Avro objects. */
    private static final class Codec {
        final SpecificDatumWriter<SweepCurve> writer = new SpecificDatumWriter<>(SweepCurve.getClassSchema());
        final SpecificDatumReader<SweepCurve> reader =
                new SpecificDatumReader<>(SweepCurve.getClassSchema(), SweepCurve.getClassSchema());
        final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        BinaryEncoder encoder;
        BinaryDecoder decoder;
    }

    @Override
    public Serializer<SweepCurve> serializer() {
        return (topic, curve) -> {
            if (curve == null) {
                return null;
            }
            Codec c = codec.get();
            try {
                c.out.reset();
                c.encoder = EncoderFactory.get().binaryEncoder(c.out, c.encoder);
                c.writer.write(curve, c.encoder);
                c.encoder.flush();
                return c.out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Override
    public Deserializer<SweepCurve> deserializer() {
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

package io.capstream.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Plain Avro binary encoding of a generated record (no registry, no wire-format header) for Kafka
 * Streams' internal topics and state stores (changelogs, repartition topics). Writer and reader schema
 * are the compiled schema, so data written by one capstream version is read by the same version: an
 * internal topic is rebuilt by the same application. No schema is registered, so a throwaway
 * application id leaves no subject in the registry. Thread-safe: the datum writer/reader and buffers
 * are per thread (a serde instance is shared by the stream tasks). A null value (tombstone) maps to
 * null both ways.
 *
 * @param <T> the generated record type
 */
public class AvroBinarySerde<T extends SpecificRecord> implements Serde<T> {
    private final ThreadLocal<Codec<T>> codec;

    /** One thread's reusable Avro objects. */
    private static final class Codec<T> {
        final SpecificDatumWriter<T> writer;
        final SpecificDatumReader<T> reader;
        final List<SpecificDatumReader<T>> earlier = new ArrayList<>();
        final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        BinaryEncoder encoder;
        BinaryDecoder decoder;

        Codec(Schema schema, SpecificData model, List<Schema> earlierWriterSchemas) {
            writer = new SpecificDatumWriter<>(schema, model);
            reader = new SpecificDatumReader<>(schema, schema, model);
            for (Schema w : earlierWriterSchemas) {
                earlier.add(new SpecificDatumReader<>(w, schema, model));
            }
        }
    }

    /**
     * @param schema the record's compiled schema ({@code getClassSchema()}); not null
     * @param model  the data model, e.g. {@link CustomCoderModels#forClass} for the generated custom coders,
     *               or {@link SpecificData#getForSchema(Schema)}; not null
     */
    protected AvroBinarySerde(Schema schema, SpecificData model) {
        this(schema, model, List.of());
    }

    /**
     * A serde that also reads the bytes an earlier capstream version wrote (a changelog restored across an
     * upgrade): when the compiled schema cannot read a value (it ends early, or a union index is out of range),
     * each earlier writer schema is tried in turn with Avro's schema resolution, and the first that reads the
     * whole value wins. Values are always written with the compiled schema.
     *
     * @param schema               the record's compiled schema; not null
     * @param model                the data model; not null
     * @param earlierWriterSchemas schemas earlier versions wrote with, newest first; not null, possibly empty
     */
    protected AvroBinarySerde(Schema schema, SpecificData model, List<Schema> earlierWriterSchemas) {
        List<Schema> earlier = List.copyOf(earlierWriterSchemas);
        this.codec = ThreadLocal.withInitial(() -> new Codec<>(schema, model, earlier));
    }

    /**
     * Reads an earlier writer schema kept as a resource beside a serde class (for {@code earlierWriterSchemas}).
     *
     * @param owner    the class whose package holds the resource; not null
     * @param resource the resource's name relative to that package, e.g. {@code run-event-before-issue-33.avsc}
     * @return the parsed schema
     * @throws IllegalStateException when the resource is missing
     * @throws UncheckedIOException  when it cannot be read
     */
    protected static Schema earlierSchema(Class<?> owner, String resource) {
        try (java.io.InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new Schema.Parser().parse(in);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            Codec<T> c = codec.get();
            try {
                c.out.reset();
                c.encoder = EncoderFactory.get().binaryEncoder(c.out, c.encoder);
                c.writer.write(value, c.encoder);
                c.encoder.flush();
                return c.out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** @return the value as the first earlier writer schema that reads all of {@code bytes} sees it, or null */
    private static <T> T readEarlier(Codec<T> c, byte[] bytes) {
        for (SpecificDatumReader<T> r : c.earlier) {
            try {
                BinaryDecoder d = DecoderFactory.get().binaryDecoder(bytes, null);
                T value = r.read(null, d);
                if (d.isEnd()) {
                    return value;
                }
            } catch (IOException | AvroRuntimeException ignored) {
                // not this version's bytes: try the next
            }
        }
        return null;
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            Codec<T> c = codec.get();
            try {
                c.decoder = DecoderFactory.get().binaryDecoder(bytes, c.decoder);
                T value = c.reader.read(null, c.decoder);
                if (c.decoder.isEnd() || c.earlier.isEmpty()) {
                    return value;
                }
                // bytes left over: an earlier version's value the compiled schema misread
                T older = readEarlier(c, bytes);
                return older != null ? older : value;
            } catch (IOException | AvroRuntimeException e) {
                T older = readEarlier(c, bytes);
                if (older != null) {
                    return older;
                }
                throw e instanceof IOException io ? new UncheckedIOException(io) : (AvroRuntimeException) e;
            }
        };
    }
}

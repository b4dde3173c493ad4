package io.capstream.schemas.serde;

import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryClient;
import io.capstream.schemas.registry.SchemaRegistryClients;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Conversion;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for Avro specific records in the Confluent wire format. Configuration keys are
 * Confluent's: {@value #SCHEMA_REGISTRY_URL} (required; {@code mock://scope} for the in-memory
 * registry) and {@value #AUTO_REGISTER} (default true: register the schema; false: only look up
 * the id of an already registered schema with {@code POST /subjects/{subject}}). Registry client
 * settings (credentials, timeouts) are read with {@link RegistryClientConfig#fromProperties}. The
 * subject is {@code <topic>-value} or {@code <topic>-key} (TopicNameStrategy).
 *
 * <p>Errors: the serializer and deserializer throw Kafka's {@link SerializationException} naming
 * the type, topic/subject and the registry's message.
 *
 * @param <T> the generated Avro class
 */
public final class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {
    /** Registry URL setting. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    /** Whether the serializer registers its schema. */
    public static final String AUTO_REGISTER = "auto.register.schemas";

    private final Class<T> type;
    private final Schema readerSchema;
    private SchemaRegistryClient registry;
    private boolean isKey;
    private boolean autoRegister = true;
    private final Map<String, Integer> idBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> writerById = new ConcurrentHashMap<>();
    /** One datum reader per writer schema id (datum readers are thread-safe). */
    private final Map<Integer, SpecificDatumReader<T>> readerById = new ConcurrentHashMap<>();
    /** The datum writer for {@link #readerSchema} (thread-safe), with the generated custom coders enabled. */
    private final SpecificDatumWriter<T> writer;
    /** Initial output buffer size: the largest record serialized so far (bounded), to avoid regrowing. */
    private volatile int sizeHint = 128;

    /**
     * @param type the generated class to (de)serialize
     */
    public SpecificAvroSerde(Class<T> type) {
        this.type = type;
        this.readerSchema = SpecificData.get().getSchema(type);
        this.writer = new SpecificDatumWriter<>(readerSchema, CustomCoderModels.forClass(type));
    }

    /**
     * Creates a configured value serde.
     *
     * @param type        generated class
     * @param registryUrl registry URL
     * @param <T>         generated class
     * @return the serde
     */
    public static <T extends SpecificRecord> SpecificAvroSerde<T> forValue(Class<T> type, String registryUrl) {
        return forValue(type, registryUrl, RegistryClientConfig.defaults());
    }

    /**
     * Creates a configured value serde whose registry client uses {@code config} (credentials,
     * timeouts, retries).
     *
     * @param type        generated class
     * @param registryUrl registry URL
     * @param config      registry client settings; null means {@link RegistryClientConfig#defaults()}
     * @param <T>         generated class
     * @return the serde
     */
    public static <T extends SpecificRecord> SpecificAvroSerde<T> forValue(Class<T> type, String registryUrl,
                                                                           RegistryClientConfig config) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
        serde.withClient(SchemaRegistryClients.forUrl(registryUrl,
                config == null ? RegistryClientConfig.defaults() : config), false);
        return serde;
    }

    /**
     * Uses an existing registry client instead of creating one from the URL setting.
     *
     * @param client the client
     * @param key    whether this serde is for keys
     * @return this
     */
    public SpecificAvroSerde<T> withClient(SchemaRegistryClient client, boolean key) {
        this.registry = client;
        this.isKey = key;
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean key) {
        this.isKey = key;
        Object url = configs.get(SCHEMA_REGISTRY_URL);
        if (registry == null) {
            if (url == null) {
                throw new IllegalArgumentException("missing " + SCHEMA_REGISTRY_URL);
            }
            registry = SchemaRegistryClients.forUrl(url.toString(), RegistryClientConfig.fromProperties(configs));
        }
        Object auto = configs.get(AUTO_REGISTER);
        if (auto != null) {
            autoRegister = Boolean.parseBoolean(auto.toString());
        }
    }

    private byte[] encode(int schemaId, T record) {
        if (record.getSchema() != readerSchema) {
            return AvroWireFormat.encode(schemaId, record);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        out.write(AvroWireFormat.MAGIC);
        out.write((schemaId >>> 24) & 0xff);
        out.write((schemaId >>> 16) & 0xff);
        out.write((schemaId >>> 8) & 0xff);
        out.write(schemaId & 0xff);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int size = out.size();
        if (size > sizeHint) {
            sizeHint = Math.min(size + (size >> 4), 4 << 20);
        }
        return out.toByteArray();
    }

    /** As {@link AvroWireFormat#decode}, with the datum reader cached per writer schema id. */
    private T decode(byte[] bytes, int id, Schema writerSchema) {
        SpecificDatumReader<T> reader = readerById.computeIfAbsent(id,
                i -> new SpecificDatumReader<>(writerSchema, readerSchema, SpecificData.get()));
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, AvroWireFormat.HEADER_LENGTH,
                bytes.length - AvroWireFormat.HEADER_LENGTH, null);
        try {
            return reader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("invalid Avro payload for schema " + writerSchema.getFullName() + ": " + e, e);
        }
    }

    /** @return the generated class this serde handles */
    public Class<T> type() {
        return type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            String subject = topic + (isKey ? "-key" : "-value");
            try {
                int id = idBySubject.computeIfAbsent(subject, s -> autoRegister
                        ? registry.register(s, data.getSchema())
                        : registry.getId(s, data.getSchema()));
                return encode(id, data);
            } catch (RuntimeException e) {
                throw new SerializationException("cannot serialize " + type.getSimpleName() + " for subject " + subject
                        + (autoRegister ? "" : " (auto.register.schemas=false: the schema must already be registered)")
                        + ": " + e.getMessage(), e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                int id = AvroWireFormat.schemaId(bytes);
                Schema writer = writerById.computeIfAbsent(id, registry::getById);
                return decode(bytes, id, writer);
            } catch (RuntimeException e) {
                throw new SerializationException("cannot decode " + type.getSimpleName() + " from topic " + topic + ": "
                        + e.getMessage(), e);
            }
        };
    }
}

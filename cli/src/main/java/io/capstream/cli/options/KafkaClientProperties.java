package io.capstream.cli.options;

import io.capstream.cli.config.Secrets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The Kafka client settings every producer, consumer, admin client and Streams application of a
 * command is built from: the bootstrap servers plus the user's {@code --kafka-property} settings
 * (flag, {@code CAPSTREAM_KAFKA_PROPERTY}, config file; merged per key). Use it for every client so
 * that SASL/SSL settings reach all of them:
 *
 * <pre>{@code
 * KafkaClientProperties kafka = kafkaOptions.clientProperties();
 * new KafkaProducer<>(kafka.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all")), keySer, valueSer);
 * new KafkaStreams(topology, kafka.streamsProperties(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "capstream-aggregator")));
 * }</pre>
 *
 * <p>Merge rule of every method: capstream's own settings (the argument), then the user's settings on
 * top, except {@link #RESERVED} keys, which the user cannot override (capstream owns the serdes and
 * the application id; the servers come from {@code --bootstrap-servers}). Each call returns a new
 * mutable map. Print only {@link #redacted()}.
 *
 * @param bootstrapServers {@code host:port[,...]}, or null when the command runs an embedded broker
 *                         (then callers use the broker's address via {@link #withBootstrapServers})
 * @param userProperties   the user's client settings; never null, unmodifiable
 */
public record KafkaClientProperties(String bootstrapServers, Map<String, String> userProperties) {
    /** Client keys that {@code --kafka-property} may not set. */
    public static final Set<String> RESERVED = Set.of(
            "bootstrap.servers", "key.serializer", "value.serializer", "key.deserializer", "value.deserializer",
            "default.key.serde", "default.value.serde", "application.id");

    /**
     * @param bootstrapServers servers or null
     * @param userProperties   user settings; null means none
     */
    public KafkaClientProperties {
        userProperties = userProperties == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(userProperties));
    }

    /**
     * @param servers the address actually used (e.g. an embedded broker's); never null
     * @return a copy with that address
     */
    public KafkaClientProperties withBootstrapServers(String servers) {
        return new KafkaClientProperties(servers, userProperties);
    }

    /**
     * @param own capstream's settings for a producer (acks, idempotence, ...); never null
     * @return own settings + bootstrap servers + user settings
     */
    public Map<String, Object> producer(Map<String, ?> own) {
        return merge(own);
    }

    /**
     * @param own capstream's settings for a consumer (group id, offsets reset, ...); never null
     * @return own settings + bootstrap servers + user settings
     */
    public Map<String, Object> consumer(Map<String, ?> own) {
        return merge(own);
    }

    /** @return bootstrap servers + user settings, for an admin client */
    public Map<String, Object> admin() {
        return merge(Map.of());
    }

    /**
     * @param own capstream's Streams settings (application id, processing guarantee, ...); never null
     * @return own settings + bootstrap servers + user settings (non-prefixed client settings such
     *         as {@code security.protocol} reach every client Kafka Streams creates)
     */
    public Map<String, Object> streams(Map<String, ?> own) {
        return merge(own);
    }

    /**
     * @param own capstream's Streams settings; never null
     * @return {@link #streams(Map)} as {@link Properties}
     */
    public Properties streamsProperties(Map<String, ?> own) {
        Properties p = new Properties();
        p.putAll(streams(own));
        return p;
    }

    /** @return the user's settings with secrets masked, for printing */
    public Map<String, String> redacted() {
        return Secrets.redact(userProperties);
    }

    @Override
    public String toString() {
        return "KafkaClientProperties[bootstrapServers=" + bootstrapServers + ", userProperties=" + redacted() + "]";
    }

    private Map<String, Object> merge(Map<String, ?> own) {
        Map<String, Object> out = new LinkedHashMap<>(own);
        if (bootstrapServers != null) {
            out.put("bootstrap.servers", bootstrapServers);
        }
        userProperties.forEach((k, v) -> {
            if (!RESERVED.contains(k)) {
                out.put(k, v);
            }
        });
        return out;
    }
}

package io.capstream.loadgen.emit;

import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.util.Map;

/**
 * Settings of {@link KafkaEventSink}.
 *
 * @param bootstrapServers  Kafka bootstrap servers, e.g. {@code 127.0.0.1:9092}
 * @param schemaRegistryUrl Confluent-compatible registry URL, or {@code mock://<scope>}
 * @param topic             topic to write ({@link Topics#EVENTS} by default)
 * @param clientProperties  extra producer properties (security etc.); they override the defaults
 *                          but not idempotence/acks
 * @param bufferCapacity    maximum events waiting to be handed to the producer; beyond it events
 *                          are dropped and counted undelivered (bounded memory)
 * @param deliveryTimeoutMs producer {@code delivery.timeout.ms}: after it an unacknowledged event
 *                          counts as undelivered, ms
 * @param registryClient    registry client settings (credentials, timeouts) of the producer's serde;
 *                          null means {@link RegistryClientConfig#defaults()}
 */
public record KafkaSinkConfig(String bootstrapServers, String schemaRegistryUrl, String topic,
                              Map<String, String> clientProperties, int bufferCapacity, int deliveryTimeoutMs,
                              RegistryClientConfig registryClient) {

    /** Compact constructor: defaults for null/zero values. */
    public KafkaSinkConfig {
        topic = topic == null ? Topics.EVENTS : topic;
        clientProperties = clientProperties == null ? Map.of() : Map.copyOf(clientProperties);
        bufferCapacity = bufferCapacity <= 0 ? 1_000_000 : bufferCapacity;
        deliveryTimeoutMs = deliveryTimeoutMs <= 0 ? 120_000 : deliveryTimeoutMs;
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }

    /**
     * @param bootstrapServers  Kafka bootstrap servers
     * @param schemaRegistryUrl registry URL
     * @return a config with default topic, buffer (1,000,000 events) and delivery timeout (120 s)
     */
    public static KafkaSinkConfig of(String bootstrapServers, String schemaRegistryUrl) {
        return new KafkaSinkConfig(bootstrapServers, schemaRegistryUrl, null, null, 0, 0, null);
    }

    /**
     * @param properties extra producer properties (security etc.); null means none
     * @return a copy using these properties
     */
    public KafkaSinkConfig withClientProperties(Map<String, String> properties) {
        return new KafkaSinkConfig(bootstrapServers, schemaRegistryUrl, topic, properties, bufferCapacity,
                deliveryTimeoutMs, registryClient);
    }

    /**
     * @param timeoutMs producer {@code delivery.timeout.ms}, ms; 0 or less means the default (120 s)
     * @return a copy using this delivery timeout
     */
    public KafkaSinkConfig withDeliveryTimeoutMs(int timeoutMs) {
        return new KafkaSinkConfig(bootstrapServers, schemaRegistryUrl, topic, clientProperties, bufferCapacity,
                timeoutMs, registryClient);
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy using these settings
     */
    public KafkaSinkConfig withRegistryClient(RegistryClientConfig client) {
        return new KafkaSinkConfig(bootstrapServers, schemaRegistryUrl, topic, clientProperties, bufferCapacity,
                deliveryTimeoutMs, client);
    }
}

package io.capstream.aggregator.events;

import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.util.Objects;

/**
 * Settings of {@link EventsSource}.
 *
 * @param eventsTopic       topic of {@code RunEvent} records (Confluent wire format); not null
 * @param dlqTopic          topic that receives undecodable records; not null
 * @param schemaRegistryUrl registry URL used to decode ({@code mock://scope} for the in-memory registry); not null
 * @param registryClient    registry client settings (credentials, timeouts); null means
 *                          {@link RegistryClientConfig#defaults()}
 * @param registryRetry     how a record is held while the registry gives no answer; null means
 *                          {@link RegistryRetry#defaults()}
 * @param registryHealth    where the decoders report registry outages (read by readiness); null means
 *                          a new instance nobody else reads
 */
public record EventsSourceConfig(String eventsTopic, String dlqTopic, String schemaRegistryUrl,
                                 RegistryClientConfig registryClient, RegistryRetry registryRetry,
                                 RegistryHealth registryHealth) {
    /** Validates. */
    public EventsSourceConfig {
        Objects.requireNonNull(eventsTopic, "eventsTopic");
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        registryRetry = registryRetry == null ? RegistryRetry.defaults() : registryRetry;
        registryHealth = registryHealth == null ? new RegistryHealth() : registryHealth;
    }

    /**
     * Default retry and a health object of its own; see the canonical constructor.
     *
     * @param eventsTopic       events topic
     * @param dlqTopic          dead-letter topic
     * @param schemaRegistryUrl registry URL
     * @param registryClient    registry client settings; null means the defaults
     */
    public EventsSourceConfig(String eventsTopic, String dlqTopic, String schemaRegistryUrl,
                              RegistryClientConfig registryClient) {
        this(eventsTopic, dlqTopic, schemaRegistryUrl, registryClient, null, null);
    }

    /**
     * @param eventsTopic       events topic
     * @param dlqTopic          dead-letter topic
     * @param schemaRegistryUrl registry URL (default client settings, no credentials)
     */
    public EventsSourceConfig(String eventsTopic, String dlqTopic, String schemaRegistryUrl) {
        this(eventsTopic, dlqTopic, schemaRegistryUrl, null);
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @return the config with the standard topic names ({@link Topics#EVENTS}, {@link Topics#EVENTS_DLQ})
     */
    public static EventsSourceConfig defaults(String schemaRegistryUrl) {
        return new EventsSourceConfig(Topics.EVENTS, Topics.EVENTS_DLQ, schemaRegistryUrl);
    }

    /**
     * @param retry how records are held during a registry outage; not null
     * @return a copy with this retry
     */
    public EventsSourceConfig withRegistryRetry(RegistryRetry retry) {
        return new EventsSourceConfig(eventsTopic, dlqTopic, schemaRegistryUrl, registryClient,
                Objects.requireNonNull(retry, "retry"), registryHealth);
    }

    /**
     * @param health where decoders report registry outages; not null
     * @return a copy reporting there
     */
    public EventsSourceConfig withRegistryHealth(RegistryHealth health) {
        return new EventsSourceConfig(eventsTopic, dlqTopic, schemaRegistryUrl, registryClient, registryRetry,
                Objects.requireNonNull(health, "health"));
    }
}

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
 */
public record EventsSourceConfig(String eventsTopic, String dlqTopic, String schemaRegistryUrl,
                                 RegistryClientConfig registryClient) {
    /** Validates. */
    public EventsSourceConfig {
        Objects.requireNonNull(eventsTopic, "eventsTopic");
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
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
}

package io.capstream.cli.runner;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.RunOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;

/**
 * What {@link RunDriver} runs.
 *
 * @param commandName         {@code run} or {@code generate} (for messages)
 * @param run                 run parameters
 * @param sim                 simulated-engine options (used when no {@code --base-url} is given)
 * @param kafka               Kafka client settings; null bootstrap servers = embedded broker
 * @param schemaRegistryUrl   registry URL, or null for {@value RunDriver#MOCK_REGISTRY}
 * @param registryClient      registry client settings (credentials from {@code --schema-registry-basic-auth} /
 *                            {@code --schema-registry-bearer-token}); null means defaults
 * @param requireExternalKafka {@code generate}: bootstrap servers and registry are required
 * @param aggregator          run the report topology in-process
 * @param awaitReport         wait for the report and write it (needs an aggregator somewhere)
 * @param output              {@code --output}, or null for {@code capstream-report-<run_id>.json}
 * @param reportTimeout       how long to wait for the report after the run
 */
public record RunRequest(String commandName, RunOptions run, SimOptions sim, KafkaClientProperties kafka,
                         String schemaRegistryUrl, RegistryClientConfig registryClient, boolean requireExternalKafka,
                         boolean aggregator, boolean awaitReport, String output, Duration reportTimeout,
                         EventDelivery eventDelivery) {
    /** Defaults a null registry client config and a null event delivery ({@link EventDelivery#AUTO}). */
    public RunRequest {
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        eventDelivery = eventDelivery == null ? EventDelivery.AUTO : eventDelivery;
    }
}

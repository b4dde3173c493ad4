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
 * @param eventDelivery       when events go to Kafka; null means {@link EventDelivery#AUTO}
 * @param aggregatorGroup     application id of a {@code capstream aggregate} service: with a shared Kafka and
 *                            {@code aggregator}, while its group has active members no in-process aggregator
 *                            starts and the service's report is awaited; null = never look for one
 */
public record RunRequest(String commandName, RunOptions run, SimOptions sim, KafkaClientProperties kafka,
                         String schemaRegistryUrl, RegistryClientConfig registryClient, boolean requireExternalKafka,
                         boolean aggregator, boolean awaitReport, String output, Duration reportTimeout,
                         EventDelivery eventDelivery, String aggregatorGroup) {
    /** Defaults a null registry client config and a null event delivery ({@link EventDelivery#AUTO}). */
    public RunRequest {
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        eventDelivery = eventDelivery == null ? EventDelivery.AUTO : eventDelivery;
    }

    /**
     * A request that never looks for a running {@code capstream aggregate} ({@code aggregatorGroup} null);
     * the parameters are those of the canonical constructor.
     *
     * @param commandName          {@code run} or {@code generate}
     * @param run                  run parameters
     * @param sim                  simulated-engine options
     * @param kafka                Kafka client settings
     * @param schemaRegistryUrl    registry URL, or null
     * @param registryClient       registry client settings, or null for defaults
     * @param requireExternalKafka bootstrap servers and registry are required
     * @param aggregator           run the report topology in-process
     * @param awaitReport          wait for the report and write it
     * @param output               report file, or null
     * @param reportTimeout        how long to wait for the report
     * @param eventDelivery        when events go to Kafka, or null for {@link EventDelivery#AUTO}
     */
    public RunRequest(String commandName, RunOptions run, SimOptions sim, KafkaClientProperties kafka,
                      String schemaRegistryUrl, RegistryClientConfig registryClient, boolean requireExternalKafka,
                      boolean aggregator, boolean awaitReport, String output, Duration reportTimeout,
                      EventDelivery eventDelivery) {
        this(commandName, run, sim, kafka, schemaRegistryUrl, registryClient, requireExternalKafka, aggregator,
                awaitReport, output, reportTimeout, eventDelivery, null);
    }
}

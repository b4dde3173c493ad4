package io.capstream.cli.stack;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.schemas.registry.RegistryClientConfig;

/**
 * What {@link LocalStack} starts in-process.
 *
 * @param kafka             client settings; {@code bootstrapServers() == null} starts the embedded broker
 * @param schemaRegistryUrl registry URL, or {@code mock://...} (in-process only)
 * @param registryClient    registry client settings (credentials, timeouts); null means
 *                          {@link RegistryClientConfig#defaults()}
 * @param aggregator        run the report topology in-process (on a shared Kafka: unless
 *                          {@code aggregatorGroup} is running, see {@link AggregatorChoice})
 * @param sim               configuration of the in-process simulated engine, or null for none
 * @param eventPartitions   partitions of {@code capstream.events} created on the embedded broker (&gt;= 1)
 * @param aggregatorGroup   application id of a {@code capstream aggregate} service to look for on a shared
 *                          Kafka before starting the in-process report topology; null = do not look
 * @param kafkaAtEnd        with the embedded broker: start it and the in-process aggregator only when
 *                          {@link LocalStack#startKafka(java.io.PrintStream)} is called (after the last
 *                          request, for deferred event delivery), so that neither runs while requests are
 *                          in flight; ignored with a shared Kafka
 */
public record StackConfig(KafkaClientProperties kafka, String schemaRegistryUrl, RegistryClientConfig registryClient,
                          boolean aggregator, SimConfig sim, int eventPartitions, String aggregatorGroup,
                          boolean kafkaAtEnd) {
    /** Defaults a null registry client config. */
    public StackConfig {
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }

    /**
     * A stack that never looks for a running {@code capstream aggregate} ({@code aggregatorGroup} null).
     *
     * @param kafka             client settings; {@code bootstrapServers() == null} starts the embedded broker
     * @param schemaRegistryUrl registry URL, or {@code mock://...}
     * @param registryClient    registry client settings; null means defaults
     * @param aggregator        run the report topology in-process
     * @param sim               the in-process simulated engine's settings, or null for none
     * @param eventPartitions   partitions of {@code capstream.events} on the embedded broker (&gt;= 1)
     */
    public StackConfig(KafkaClientProperties kafka, String schemaRegistryUrl, RegistryClientConfig registryClient,
                       boolean aggregator, SimConfig sim, int eventPartitions) {
        this(kafka, schemaRegistryUrl, registryClient, aggregator, sim, eventPartitions, null, false);
    }

    /** @return true when the broker runs in this process (no bootstrap servers given) */
    public boolean embeddedKafka() {
        return kafka.bootstrapServers() == null;
    }
}

package io.capstream.cli.stack;

import io.capstream.cli.embedded.TopicSetup;
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
    /**
     * Defaults a null registry client config.
     *
     * @throws IllegalArgumentException when {@code eventPartitions} is below 1 or {@code kafka} is null
     */
    public StackConfig {
        if (kafka == null || eventPartitions < 1) {
            throw new IllegalArgumentException("a stack needs Kafka client settings and at least one event partition");
        }
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }

    /**
     * A stack with only the required parts: no in-process aggregator, no simulated engine,
     * {@link TopicSetup#DEFAULT_EVENT_PARTITIONS} event partitions, no look for a running aggregator,
     * Kafka started at once. The {@code with...} methods change one concern each.
     *
     * @param kafka             client settings; {@code bootstrapServers() == null} starts the embedded broker
     * @param schemaRegistryUrl registry URL, or {@code mock://...}
     * @param registryClient    registry client settings; null means defaults
     * @return the configuration
     */
    public static StackConfig of(KafkaClientProperties kafka, String schemaRegistryUrl,
                                 RegistryClientConfig registryClient) {
        return new StackConfig(kafka, schemaRegistryUrl, registryClient, false, null,
                TopicSetup.DEFAULT_EVENT_PARTITIONS, null, false);
    }

    /**
     * @param run             run the report topology in-process
     * @param lookForGroup    application id of a {@code capstream aggregate} service that takes the runs when it
     *                        is running on a shared Kafka; null = do not look
     * @return a copy with this aggregator choice
     */
    public StackConfig withAggregator(boolean run, String lookForGroup) {
        return new StackConfig(kafka, schemaRegistryUrl, registryClient, run, sim, eventPartitions, lookForGroup,
                kafkaAtEnd);
    }

    /**
     * @param simConfig the in-process simulated engine's settings, or null for none
     * @return a copy with this engine
     */
    public StackConfig withSim(SimConfig simConfig) {
        return new StackConfig(kafka, schemaRegistryUrl, registryClient, aggregator, simConfig, eventPartitions,
                aggregatorGroup, kafkaAtEnd);
    }

    /**
     * @param atEnd with the embedded broker, start it and the aggregator after the last request
     * @return a copy with this start order
     */
    public StackConfig withKafkaAtEnd(boolean atEnd) {
        return new StackConfig(kafka, schemaRegistryUrl, registryClient, aggregator, sim, eventPartitions,
                aggregatorGroup, atEnd);
    }

    /** @return true when the broker runs in this process (no bootstrap servers given) */
    public boolean embeddedKafka() {
        return kafka.bootstrapServers() == null;
    }
}

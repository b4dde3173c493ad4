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
 * @param aggregator        run the report topology in-process
 * @param sim               configuration of the in-process simulated engine, or null for none
 * @param eventPartitions   partitions of {@code capstream.events} created on the embedded broker (&gt;= 1)
 */
public record StackConfig(KafkaClientProperties kafka, String schemaRegistryUrl, RegistryClientConfig registryClient,
                          boolean aggregator, SimConfig sim, int eventPartitions) {
    /** Defaults a null registry client config. */
    public StackConfig {
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }
}

package io.capstream.aggregator.sweep;

import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.util.Objects;

/**
 * Settings of {@link SweepTopology}.
 *
 * @param reportsTopic      input topic of {@code BenchmarkReport}s (key run id), read when the sweep path
 *                          has its own source ({@link SweepTopology#addTo(org.apache.kafka.streams.StreamsBuilder,
 *                          SweepTopologyConfig)}); not null
 * @param sweepsTopic       output topic of {@code SweepCurve}s (key sweep id, compacted); not null
 * @param schemaRegistryUrl registry URL for decoding reports and encoding curves ({@code mock://scope} works); not null
 * @param registryClient    registry client settings (credentials, timeouts) of the serdes; null means
 *                          {@link RegistryClientConfig#defaults()}
 */
public record SweepTopologyConfig(String reportsTopic, String sweepsTopic, String schemaRegistryUrl,
                                  RegistryClientConfig registryClient) {
    /** Validates. */
    public SweepTopologyConfig {
        Objects.requireNonNull(reportsTopic, "reportsTopic");
        Objects.requireNonNull(sweepsTopic, "sweepsTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }

    /**
     * @param schemaRegistryUrl registry URL; not null
     * @return {@link Topics#REPORTS} to {@link Topics#SWEEPS}, default registry client settings
     */
    public static SweepTopologyConfig defaults(String schemaRegistryUrl) {
        return new SweepTopologyConfig(Topics.REPORTS, Topics.SWEEPS, schemaRegistryUrl, null);
    }

    /**
     * @param report the report path's settings; not null
     * @return its reports topic, registry URL and registry client, and {@link Topics#SWEEPS}
     */
    public static SweepTopologyConfig of(ReportTopologyConfig report) {
        return new SweepTopologyConfig(report.reportsTopic(), Topics.SWEEPS, report.schemaRegistryUrl(),
                report.registryClient());
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy using these settings
     */
    public SweepTopologyConfig withRegistryClient(RegistryClientConfig client) {
        return new SweepTopologyConfig(reportsTopic, sweepsTopic, schemaRegistryUrl, client);
    }
}

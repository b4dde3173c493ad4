package io.capstream.aggregator;

import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloTopologyConfig;
import io.capstream.aggregator.window.WindowTopologyConfig;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the whole aggregator topology ({@link AggregatorTopology}): the report path
 * (which also names the events source and the reports topic), the windowed summaries and the SLO
 * alerts.
 *
 * @param report reports and shared events source; not null
 * @param window windowed summaries; not null
 * @param slo    SLO alerts (same SLOs as {@code window.slos()}); not null
 */
public record AggregatorConfig(ReportTopologyConfig report, WindowTopologyConfig window, SloTopologyConfig slo) {
    /** Validates. */
    public AggregatorConfig {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(slo, "slo");
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @param windowSize        tumbling window size
     * @param grace             window grace period
     * @param slos              SLOs (may be empty)
     * @return standard topics and defaults, with these window settings and SLOs
     */
    public static AggregatorConfig of(String schemaRegistryUrl, Duration windowSize, Duration grace, List<Slo> slos) {
        return of(schemaRegistryUrl, RegistryClientConfig.defaults(), windowSize, grace, slos);
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @param registryClient    registry client settings (credentials, timeouts) for every serde and decoder
     * @param windowSize        tumbling window size
     * @param grace             window grace period
     * @param slos              SLOs (may be empty)
     * @return standard topics and defaults, with these registry, window settings and SLOs
     */
    public static AggregatorConfig of(String schemaRegistryUrl, RegistryClientConfig registryClient, Duration windowSize,
                                      Duration grace, List<Slo> slos) {
        return new AggregatorConfig(ReportTopologyConfig.defaults(schemaRegistryUrl).withRegistryClient(registryClient)
                        .withSloParser(ReportSlos::parse),
                WindowTopologyConfig.defaults(schemaRegistryUrl).withWindow(windowSize, grace).withSlos(slos)
                        .withRegistryClient(registryClient),
                SloTopologyConfig.defaults(slos, schemaRegistryUrl).withRegistryClient(registryClient));
    }

    /**
     * @param slo the SLO alerts' settings (e.g. {@code slo().withDecision(..)}); not null
     * @return a copy with them
     */
    public AggregatorConfig withSlo(SloTopologyConfig slo) {
        return new AggregatorConfig(report, window, slo);
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy whose report, window and SLO parts all use these settings
     */
    public AggregatorConfig withRegistryClient(RegistryClientConfig client) {
        return new AggregatorConfig(report.withRegistryClient(client), window.withRegistryClient(client),
                slo.withRegistryClient(client));
    }
}

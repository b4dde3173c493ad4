package io.capstream.aggregator.slo;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of {@link SloTopology}.
 *
 * @param slos              SLOs evaluated per closed window; empty = no alerts
 * @param alertsTopic       output topic of {@code SloBreach} records; not null
 * @param schemaRegistryUrl registry URL for the Avro serdes; not null
 * @param retention         how long alerts stay queryable in the alerts history store (&gt; 0)
 * @param clock             clock for {@code detected_at_ms}; not null
 * @param registryClient    registry client settings (credentials, timeouts) of the serdes; null means
 *                          {@link RegistryClientConfig#defaults()}
 * @param decision          how a window decides an SLO's state; null means {@link SloDecision#interval()}
 * @param burnRate          burn-rate alerting on the per-request SLOs' error budget; null means none
 * @param listener          hears every alert this instance publishes (SLO and burn-rate, on the stream thread; e.g.
 *                          a Prometheus state gauge); must not throw; null means none
 */
public record SloTopologyConfig(List<Slo> slos, String alertsTopic, String schemaRegistryUrl, Duration retention,
                                Clock clock, RegistryClientConfig registryClient, SloDecision decision,
                                BurnRatePolicy burnRate, Consumer<SloBreach> listener) {
    /** Validates and copies. */
    public SloTopologyConfig {
        slos = slos == null ? List.of() : List.copyOf(slos);
        Objects.requireNonNull(alertsTopic, "alertsTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(clock, "clock");
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        decision = decision == null ? SloDecision.interval() : decision;
        listener = listener == null ? alert -> { } : listener;
    }

    /** Interval decisions, no burn rate, no listener; see the canonical constructor. */
    public SloTopologyConfig(List<Slo> slos, String alertsTopic, String schemaRegistryUrl, Duration retention,
                             Clock clock, RegistryClientConfig registryClient) {
        this(slos, alertsTopic, schemaRegistryUrl, retention, clock, registryClient, null, null, null);
    }

    /** Default registry client settings (no credentials); see the canonical constructor. */
    public SloTopologyConfig(List<Slo> slos, String alertsTopic, String schemaRegistryUrl, Duration retention,
                             Clock clock) {
        this(slos, alertsTopic, schemaRegistryUrl, retention, clock, null);
    }

    /**
     * @param slos              SLOs
     * @param schemaRegistryUrl registry URL
     * @return config with {@link Topics#ALERTS}, 7 days of queryable history and the UTC system clock
     */
    public static SloTopologyConfig defaults(List<Slo> slos, String schemaRegistryUrl) {
        return new SloTopologyConfig(slos, Topics.ALERTS, schemaRegistryUrl, Duration.ofDays(7), Clock.systemUTC());
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy using these settings
     */
    public SloTopologyConfig withRegistryClient(RegistryClientConfig client) {
        return new SloTopologyConfig(slos, alertsTopic, schemaRegistryUrl, retention, clock, client, decision, burnRate,
                listener);
    }

    /**
     * @param d how windows decide SLO states; null = interval
     * @return a copy with it
     */
    public SloTopologyConfig withDecision(SloDecision d) {
        return new SloTopologyConfig(slos, alertsTopic, schemaRegistryUrl, retention, clock, registryClient, d, burnRate,
                listener);
    }

    /**
     * @param policy burn-rate alerting; null = none
     * @return a copy with it
     */
    public SloTopologyConfig withBurnRate(BurnRatePolicy policy) {
        return new SloTopologyConfig(slos, alertsTopic, schemaRegistryUrl, retention, clock, registryClient, decision,
                policy, listener);
    }

    /**
     * @param l hears every published alert (e.g. {@code io.capstream.aggregator.api.AlertStateCollector}); null = none
     * @return a copy with it
     */
    public SloTopologyConfig withListener(Consumer<SloBreach> l) {
        return new SloTopologyConfig(slos, alertsTopic, schemaRegistryUrl, retention, clock, registryClient, decision,
                burnRate, l);
    }
}

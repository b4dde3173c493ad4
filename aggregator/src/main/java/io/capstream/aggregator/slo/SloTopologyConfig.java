package io.capstream.aggregator.slo;

import io.capstream.schemas.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of {@link SloTopology}.
 *
 * @param slos              SLOs evaluated per closed window; empty = no alerts
 * @param alertsTopic       output topic of {@code SloBreach} records; not null
 * @param schemaRegistryUrl registry URL for the Avro serdes; not null
 * @param retention         how long alerts stay queryable in the alerts history store (&gt; 0)
 * @param clock             clock for {@code detected_at_ms}; not null
 */
public record SloTopologyConfig(List<Slo> slos, String alertsTopic, String schemaRegistryUrl, Duration retention,
                                Clock clock) {
    /** Validates and copies. */
    public SloTopologyConfig {
        slos = slos == null ? List.of() : List.copyOf(slos);
        Objects.requireNonNull(alertsTopic, "alertsTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param slos              SLOs
     * @param schemaRegistryUrl registry URL
     * @return config with {@link Topics#ALERTS}, 7 days of queryable history and the UTC system clock
     */
    public static SloTopologyConfig defaults(List<Slo> slos, String schemaRegistryUrl) {
        return new SloTopologyConfig(slos, Topics.ALERTS, schemaRegistryUrl, Duration.ofDays(7), Clock.systemUTC());
    }
}

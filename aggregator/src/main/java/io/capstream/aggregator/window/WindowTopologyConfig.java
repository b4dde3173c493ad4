package io.capstream.aggregator.window;

import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of {@link WindowTopology}.
 *
 * @param windowSize        tumbling window length (&gt; 0); default 1 minute
 * @param grace             how long after a window's end late events are still accepted (&ge; 0); default 10 s
 * @param relativeAccuracy  DDSketch relative accuracy in (0, 1); default 0.01 (1%)
 * @param buckets           context buckets; not null
 * @param slos              SLOs, as request criteria (goodput counts requests meeting every per-request one); empty = no goodput
 * @param summariesTopic    output topic of {@code WindowSummary} records; not null
 * @param schemaRegistryUrl registry URL for the Avro serdes ({@code mock://scope} in tests); not null
 * @param retention         how long closed summaries stay queryable in the summaries store (&ge; window size)
 * @param registryClient    registry client settings (credentials, timeouts) of the serdes; null means
 *                          {@link RegistryClientConfig#defaults()}
 * @param inputPartitions   partitions of the events topic (&ge; 0): a window closes only once every one of them has
 *                          reported its progress ({@link InputProgress}); 0 = unknown (only those that reported
 *                          count; a backlog may then lose requests in the first seconds)
 * @param sourceIdle        how long (wall clock) an input partition without any record is idle and no longer holds
 *                          windows open (&gt; 0); default 10 s
 */
public record WindowTopologyConfig(Duration windowSize, Duration grace, double relativeAccuracy,
                                   ContextBuckets buckets, List<? extends RequestCriterion> slos, String summariesTopic,
                                   String schemaRegistryUrl, Duration retention, RegistryClientConfig registryClient,
                                   int inputPartitions, Duration sourceIdle) {
    /** Default window size: 1 minute. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);
    /** Default grace: 10 s. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);
    /**
     * Default time without records after which an input partition is idle: 10 s (a partition that is read but
     * whose records the stream thread has not reached yet, on a loaded machine, must not look idle).
     */
    public static final Duration DEFAULT_SOURCE_IDLE = Duration.ofSeconds(10);
    /** Default retention of the queryable summaries: 24 h. */
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

    /** Validates and copies. */
    public WindowTopologyConfig {
        Objects.requireNonNull(windowSize, "windowSize");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(buckets, "buckets");
        Objects.requireNonNull(summariesTopic, "summariesTopic");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(retention, "retention");
        if (windowSize.toMillis() <= 0) {
            throw new IllegalArgumentException("window size must be > 0 ms: " + windowSize);
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must be >= 0: " + grace);
        }
        if (!(relativeAccuracy > 0 && relativeAccuracy < 1)) {
            throw new IllegalArgumentException("relative accuracy must be in (0, 1): " + relativeAccuracy);
        }
        if (retention.compareTo(windowSize) < 0) {
            throw new IllegalArgumentException("retention must be >= the window size");
        }
        if (inputPartitions < 0) {
            throw new IllegalArgumentException("input partitions must be >= 0: " + inputPartitions);
        }
        sourceIdle = sourceIdle == null ? DEFAULT_SOURCE_IDLE : sourceIdle;
        if (sourceIdle.toMillis() <= 0) {
            throw new IllegalArgumentException("source idle time must be > 0 ms: " + sourceIdle);
        }
        slos = slos == null ? List.of() : List.copyOf(slos);
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
    }

    /** Default registry client settings (no credentials); see the canonical constructor. */
    public WindowTopologyConfig(Duration windowSize, Duration grace, double relativeAccuracy, ContextBuckets buckets,
                                List<? extends RequestCriterion> slos, String summariesTopic, String schemaRegistryUrl, Duration retention) {
        this(windowSize, grace, relativeAccuracy, buckets, slos, summariesTopic, schemaRegistryUrl, retention, null, 0,
                DEFAULT_SOURCE_IDLE);
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @return 1 min windows, 10 s grace, 1% accuracy, default buckets, no SLOs, {@link Topics#SUMMARIES}, 24 h retention
     */
    public static WindowTopologyConfig defaults(String schemaRegistryUrl) {
        return new WindowTopologyConfig(DEFAULT_WINDOW, DEFAULT_GRACE, Sketches.DEFAULT_RELATIVE_ACCURACY,
                ContextBuckets.DEFAULT, List.of(), Topics.SUMMARIES, schemaRegistryUrl, DEFAULT_RETENTION);
    }

    /**
     * @param size  window size
     * @param grace grace period
     * @return a copy with these window bounds
     */
    public WindowTopologyConfig withWindow(Duration size, Duration grace) {
        return new WindowTopologyConfig(size, grace, relativeAccuracy, buckets, slos, summariesTopic,
                schemaRegistryUrl, retention.compareTo(size) < 0 ? size : retention, registryClient, inputPartitions,
                sourceIdle);
    }

    /**
     * @param newSlos SLOs
     * @return a copy with these SLOs
     */
    public WindowTopologyConfig withSlos(List<? extends RequestCriterion> newSlos) {
        return new WindowTopologyConfig(windowSize, grace, relativeAccuracy, buckets, newSlos, summariesTopic,
                schemaRegistryUrl, retention, registryClient, inputPartitions, sourceIdle);
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy using these settings
     */
    public WindowTopologyConfig withRegistryClient(RegistryClientConfig client) {
        return new WindowTopologyConfig(windowSize, grace, relativeAccuracy, buckets, slos, summariesTopic,
                schemaRegistryUrl, retention, client, inputPartitions, sourceIdle);
    }

    /**
     * @param partitions partitions of the events topic (&ge; 0; 0 = unknown)
     * @param idle       time without records after which an input partition is idle (&gt; 0); null = default
     * @return a copy with these input settings
     */
    public WindowTopologyConfig withInput(int partitions, Duration idle) {
        return new WindowTopologyConfig(windowSize, grace, relativeAccuracy, buckets, slos, summariesTopic,
                schemaRegistryUrl, retention, registryClient, partitions, idle);
    }
}

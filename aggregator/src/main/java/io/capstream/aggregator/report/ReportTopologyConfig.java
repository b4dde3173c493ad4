package io.capstream.aggregator.report;

import io.capstream.aggregator.events.EventsSourceConfig;
import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.report.calc.RunSloParser;
import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link ReportTopology}.
 *
 * @param schemaRegistryUrl   registry URL for decoding events and encoding reports ({@code mock://scope} works); not null
 * @param eventsTopic         input topic of {@code RunEvent}s; not null
 * @param dlqTopic            dead-letter topic for undecodable events; not null
 * @param reportsTopic        output topic of {@code BenchmarkReport}s (key run id); not null
 * @param chunksTopic         output topic of the {@code ReportChunk}s of large reports (key
 *                            {@code <run id>|<index>}); null means {@link Topics#REPORT_CHUNKS}
 * @param incompleteDeadline  a run with no event for this long (wall clock) is published as an
 *                            incomplete report; positive
 * @param punctuationInterval how often (wall clock) runs are checked against the deadline; positive
 * @param doneRetention       how long a published run is remembered so that late duplicates of its
 *                            events are counted and dropped instead of starting a new run; &gt;= 0
 * @param registryClient      registry client settings (credentials, timeouts) of the serdes and the
 *                            event decoder; null means {@link RegistryClientConfig#defaults()}
 * @param registryRetry       how the event decoder holds a record while the registry gives no answer;
 *                            null means {@link RegistryRetry#defaults()}
 * @param registryHealth      where the event decoder reports registry outages (readiness reads it);
 *                            null means a new instance
 * @param sloParser           the SLO grammar the reports evaluate {@code RunStarted.slos} with
 *                            ({@code io.capstream.aggregator.slo.ReportSlos::parse}, given by whoever
 *                            builds the topology: the report package does not depend on the SLO
 *                            package); null means reports carry no {@code slo}
 */
public record ReportTopologyConfig(String schemaRegistryUrl, String eventsTopic, String dlqTopic, String reportsTopic,
                                   String chunksTopic, Duration incompleteDeadline, Duration punctuationInterval,
                                   Duration doneRetention, RegistryClientConfig registryClient,
                                   RegistryRetry registryRetry, RegistryHealth registryHealth,
                                   RunSloParser sloParser) {
    /** Default deadline after the last event of a run: 5 minutes. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    /** Default punctuation interval: 1 second. */
    public static final Duration DEFAULT_PUNCTUATION = Duration.ofSeconds(1);
    /** Default memory of published runs: 60 seconds. */
    public static final Duration DEFAULT_DONE_RETENTION = Duration.ofSeconds(60);

    /** Validates. */
    public ReportTopologyConfig {
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(eventsTopic, "eventsTopic");
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        Objects.requireNonNull(reportsTopic, "reportsTopic");
        requirePositive(incompleteDeadline, "incompleteDeadline");
        requirePositive(punctuationInterval, "punctuationInterval");
        Objects.requireNonNull(doneRetention, "doneRetention");
        if (doneRetention.isNegative()) {
            throw new IllegalArgumentException("doneRetention must be >= 0: " + doneRetention);
        }
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        registryRetry = registryRetry == null ? RegistryRetry.defaults() : registryRetry;
        registryHealth = registryHealth == null ? new RegistryHealth() : registryHealth;
        chunksTopic = chunksTopic == null ? Topics.REPORT_CHUNKS : chunksTopic;
    }

    /**
     * Default registry retry and a new registry health; see the canonical constructor.
     *
     * @param schemaRegistryUrl   registry URL; not null
     * @param eventsTopic         events topic; not null
     * @param dlqTopic            dead-letter topic; not null
     * @param reportsTopic        reports topic; not null
     * @param chunksTopic         chunks topic; null means {@link Topics#REPORT_CHUNKS}
     * @param incompleteDeadline  incomplete-run deadline; positive
     * @param punctuationInterval deadline check interval; positive
     * @param doneRetention       memory of published runs; &gt;= 0
     * @param registryClient      registry client settings; null means the defaults
     */
    public ReportTopologyConfig(String schemaRegistryUrl, String eventsTopic, String dlqTopic, String reportsTopic,
                                String chunksTopic, Duration incompleteDeadline, Duration punctuationInterval,
                                Duration doneRetention, RegistryClientConfig registryClient) {
        this(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic, incompleteDeadline, punctuationInterval,
                doneRetention, registryClient, null, null, null);
    }

    /**
     * The standard chunks topic ({@link Topics#REPORT_CHUNKS}); see the canonical constructor.
     *
     * @param schemaRegistryUrl   registry URL; not null
     * @param eventsTopic         events topic; not null
     * @param dlqTopic            dead-letter topic; not null
     * @param reportsTopic        reports topic; not null
     * @param incompleteDeadline  incomplete-run deadline; positive
     * @param punctuationInterval deadline check interval; positive
     * @param doneRetention       memory of published runs; &gt;= 0
     * @param registryClient      registry client settings; null means the defaults
     */
    public ReportTopologyConfig(String schemaRegistryUrl, String eventsTopic, String dlqTopic, String reportsTopic,
                                Duration incompleteDeadline, Duration punctuationInterval, Duration doneRetention,
                                RegistryClientConfig registryClient) {
        this(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, null, incompleteDeadline, punctuationInterval,
                doneRetention, registryClient);
    }

    /** Default registry client settings (no credentials); see the canonical constructor. */
    public ReportTopologyConfig(String schemaRegistryUrl, String eventsTopic, String dlqTopic, String reportsTopic,
                                Duration incompleteDeadline, Duration punctuationInterval, Duration doneRetention) {
        this(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, incompleteDeadline, punctuationInterval,
                doneRetention, null);
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @return standard topic names, 5 min deadline, 1 s punctuation, 60 s retention of published runs
     */
    public static ReportTopologyConfig defaults(String schemaRegistryUrl) {
        return new ReportTopologyConfig(schemaRegistryUrl, Topics.EVENTS, Topics.EVENTS_DLQ, Topics.REPORTS,
                DEFAULT_DEADLINE, DEFAULT_PUNCTUATION, DEFAULT_DONE_RETENTION);
    }

    /**
     * @param deadline incomplete-run deadline
     * @return a copy with this deadline
     */
    public ReportTopologyConfig withIncompleteDeadline(Duration deadline) {
        return new ReportTopologyConfig(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic, deadline,
                punctuationInterval, doneRetention, registryClient, registryRetry, registryHealth, sloParser);
    }

    /**
     * @param client registry client settings (credentials, timeouts)
     * @return a copy using these settings
     */
    public ReportTopologyConfig withRegistryClient(RegistryClientConfig client) {
        return new ReportTopologyConfig(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic,
                incompleteDeadline, punctuationInterval, doneRetention, client, registryRetry, registryHealth, sloParser);
    }

    /**
     * @param retry how the event decoder holds a record while the registry gives no answer; not null
     * @return a copy with this retry
     */
    public ReportTopologyConfig withRegistryRetry(RegistryRetry retry) {
        return new ReportTopologyConfig(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic,
                incompleteDeadline, punctuationInterval, doneRetention, registryClient,
                Objects.requireNonNull(retry, "retry"), registryHealth, sloParser);
    }

    /**
     * @param health where the event decoder reports registry outages; not null
     * @return a copy reporting there
     */
    public ReportTopologyConfig withRegistryHealth(RegistryHealth health) {
        return new ReportTopologyConfig(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic,
                incompleteDeadline, punctuationInterval, doneRetention, registryClient, registryRetry,
                Objects.requireNonNull(health, "health"), sloParser);
    }

    /**
     * @param parser the SLO grammar the reports evaluate {@code RunStarted.slos} with, e.g.
     *     {@code ReportSlos::parse}; null = no SLO evaluation
     * @return a copy evaluating the runs' SLOs with it
     */
    public ReportTopologyConfig withSloParser(RunSloParser parser) {
        return new ReportTopologyConfig(schemaRegistryUrl, eventsTopic, dlqTopic, reportsTopic, chunksTopic,
                incompleteDeadline, punctuationInterval, doneRetention, registryClient, registryRetry, registryHealth,
                parser);
    }

    /** @return the settings of the shared events source */
    public EventsSourceConfig eventsSource() {
        return new EventsSourceConfig(eventsTopic, dlqTopic, schemaRegistryUrl, registryClient, registryRetry, registryHealth);
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}

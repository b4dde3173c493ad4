package io.capstream.schemas;

/**
 * Names of the Kafka topics that form the contract between capstream's modules
 * (see shared/design/ARCHITECTURE.md, "Topics and records").
 */
public final class Topics {
    /** {@code RunEvent} records, key = run id. */
    public static final String EVENTS = "capstream.events";
    /** {@code BenchmarkReport} records, key = run id, compacted. */
    public static final String REPORTS = "capstream.reports";
    /** {@code WindowSummary} records, emitted when a tumbling window closes. */
    public static final String SUMMARIES = "capstream.summaries";
    /** {@code SloBreach} records, key = target + model. */
    public static final String ALERTS = "capstream.alerts";
    /** Undecodable records of {@link #EVENTS}: original key and bytes, error in headers. */
    public static final String EVENTS_DLQ = "capstream.events.dlq";

    private Topics() {
    }
}

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
    /**
     * {@code ReportChunk} records, key = {@code <run id>|<chunk index>}, compacted: the artifact JSON of
     * reports too large for one record, in pieces (see {@code BenchmarkReport.artifact_chunks}).
     */
    public static final String REPORT_CHUNKS = "capstream.reports.chunks";
    /** {@code WindowSummary} records, emitted when a tumbling window closes. */
    public static final String SUMMARIES = "capstream.summaries";
    /** {@code SloBreach} records, key = target + model. */
    public static final String ALERTS = "capstream.alerts";
    /** Undecodable records of {@link #EVENTS}: original key and bytes, error in headers. */
    public static final String EVENTS_DLQ = "capstream.events.dlq";

    private Topics() {
    }
}

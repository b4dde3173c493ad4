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
    /**
     * {@code SweepCurve} records, key = sweep id, compacted: a sweep's capacity curve, rewritten as each
     * step's report arrives.
     */
    public static final String SWEEPS = "capstream.sweeps";
    /** {@code ServerMetricsScrape} records (the endpoint's own metrics during runs), key = target. */
    public static final String SERVER_METRICS = "capstream.server-metrics";
    /** {@code SloBreach} records, key = target + model. */
    public static final String ALERTS = "capstream.alerts";
    /**
     * {@code ChangePoint} records (issue 32): lasting shifts in a series of window percentiles, key = target + model +
     * context bucket + metric.
     */
    public static final String CHANGES = "capstream.changes";
    /** Undecodable records of {@link #EVENTS}: original key and bytes, error in headers. */
    public static final String EVENTS_DLQ = "capstream.events.dlq";

    /**
     * {@code compression.type} of the records capstream's aggregator writes (reports, report chunks,
     * summaries, alerts, dead letters): gzip. It is the one codec every common client decodes without an
     * extra package: kafkajs has only gzip built in (lz4, snappy and zstd need a codec registered by
     * hand, so {@code @kafkajs/confluent-schema-registry} / {@code @confluentinc/schemaregistry} users
     * could not read lz4 records), while librdkafka (confluent-kafka for Python, Go, .NET), the Java
     * client and kafka-python read it as well. Report chunks are up to 256 KiB of JSON, which gzip
     * shrinks several-fold, so "none" would cost far more bytes than gzip costs CPU. The event producers
     * (generator, heartbeats, import/replay) send small Avro records uncompressed (the producer default,
     * which every client reads too) so that no compression runs on the measuring client.
     */
    public static final String COMPRESSION_TYPE = "gzip";

    private Topics() {
    }
}

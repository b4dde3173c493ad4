package io.capstream.aggregator.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;

/**
 * What the report collector forwards; {@link ReportTopology} routes each kind to its topic. Records
 * keep the key the collector gave them (run id; chunk key for chunks).
 */
sealed interface ReportOutput {
    /** A report record for {@code capstream.reports}. */
    record Report(BenchmarkReport report) implements ReportOutput {
    }

    /** A piece of a large report's artifact for {@code capstream.reports.chunks}. */
    record Chunk(ReportChunk chunk) implements ReportOutput {
    }

    /** A run whose report could not be published, for the dead-letter topic (value: UTF-8 text of the reason). */
    record DeadLetter(byte[] value) implements ReportOutput {
    }
}

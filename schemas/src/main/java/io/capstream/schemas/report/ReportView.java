package io.capstream.schemas.report;

import io.capstream.schemas.avro.Metrics;
import java.util.List;

/**
 * The report metrics the console renderers show, by {@link Metrics} field name (the artifact's
 * {@code metrics} keys, spec §8.2): the {@code run} summary table and {@code tail reports} read the
 * typed report through these lists, so a metric shown on the console is named once here.
 */
public final class ReportView {
    /**
     * One p50/p95 line of the summary table.
     *
     * @param label the line's label, with its unit, e.g. {@code "TTFT (ms)"}
     * @param p50Field the p50 field of {@link Metrics}
     * @param p95Field the p95 field of {@link Metrics}
     */
    public record PercentileLine(String label, String p50Field, String p95Field) {
    }

    /**
     * One metric column of {@code tail reports}.
     *
     * @param header the column header
     * @param width the column width, characters (right-aligned)
     * @param field the field of {@link Metrics}
     */
    public record Column(String header, int width, String field) {
    }

    /** The summary table's percentile lines, in display order. */
    public static final List<PercentileLine> SUMMARY_PERCENTILES = List.of(
            new PercentileLine("TTFT (ms)", "ttft_p50_ms", "ttft_p95_ms"),
            new PercentileLine("time to first output (ms)", "time_to_first_output_p50_ms", "time_to_first_output_p95_ms"),
            new PercentileLine("E2E (ms)", "e2e_p50_ms", "e2e_p95_ms"),
            new PercentileLine("inter-token latency (ms)", "mean_inter_token_latency_ms_p50",
                    "mean_inter_token_latency_ms_p95"),
            new PercentileLine("decode (tok/s)", "decode_tok_s_p50", "decode_tok_s_p95"),
            new PercentileLine("effective prefill (tok/s)", "effective_prefill_tok_s_p50", "effective_prefill_tok_s_p95"),
            new PercentileLine("prompt tokens", "prompt_tokens_p50", "prompt_tokens_p95"));

    /** The metric columns of {@code tail reports}, in display order (ms, ms, ms, tokens/s). */
    public static final List<Column> TAIL_METRICS = List.of(
            new Column("ttft_p50", 9, "ttft_p50_ms"),
            new Column("ttft_p95", 9, "ttft_p95_ms"),
            new Column("e2e_p95", 9, "e2e_p95_ms"),
            new Column("tok/s", 10, "throughput_tok_s"));

    private ReportView() {
    }

    /**
     * @param metrics the typed metrics, not null
     * @param field a numeric field of {@link Metrics}
     * @return its value as a double, or null when the value is null
     * @throws org.apache.avro.AvroRuntimeException when {@link Metrics} has no such field
     */
    public static Double metric(Metrics metrics, String field) {
        Object v = metrics.get(field);
        return v == null ? null : ((Number) v).doubleValue();
    }
}

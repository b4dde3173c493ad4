package io.capstream.schemas.report;

import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RunStatistics;
import java.util.List;
import java.util.Set;

/**
 * The report metrics the console renderers show, by {@link Metrics} field name (the artifact's
 * {@code metrics} keys, spec §8.2) and {@link RunStatistics} field name (the artifact's
 * {@code capstream.statistics} keys): the {@code run} summary table and {@code tail reports} read the
 * typed report through these lists, so a metric shown on the console is named once here, with the
 * labels of the summary's SLO, goodput and load lines.
 */
public final class ReportView {
    /**
     * One p50/p95/p99 line of the summary table.
     *
     * @param label the line's label, with its unit, e.g. {@code "TTFT (ms)"}
     * @param p50Field the p50 field of {@link Metrics}; null: the p50 of {@code distribution}
     * @param p95Field the p95 field of {@link Metrics}; null: the p95 of {@code distribution}
     * @param distribution the {@link Distribution} field of {@link RunStatistics} whose p99 (nearest
     *     rank) the line shows; null when the statistics have none (the p99 column shows {@code -})
     */
    public record PercentileLine(String label, String p50Field, String p95Field, String distribution) {
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
            new PercentileLine("TTFT (ms)", "ttft_p50_ms", "ttft_p95_ms", "ttft_ms"),
            new PercentileLine("time to first output (ms)", "time_to_first_output_p50_ms", "time_to_first_output_p95_ms",
                    "ttfo_ms"),
            new PercentileLine("E2E (ms)", "e2e_p50_ms", "e2e_p95_ms", "e2e_ms"),
            new PercentileLine("inter-token latency (ms)", "mean_inter_token_latency_ms_p50",
                    "mean_inter_token_latency_ms_p95", "itl_ms"),
            new PercentileLine("inter-chunk latency (ms)", null, null, "inter_chunk_ms"),
            new PercentileLine("decode (tok/s)", "decode_tok_s_p50", "decode_tok_s_p95", null),
            new PercentileLine("effective prefill (tok/s)", "effective_prefill_tok_s_p50", "effective_prefill_tok_s_p95",
                    null),
            new PercentileLine("prompt tokens", "prompt_tokens_p50", "prompt_tokens_p95", null));

    /** Label of the summary's request throughput line (completed req/s, total tokens/s). */
    public static final String REQUESTS_PER_S_LABEL = "requests/s";
    /** Label of the summary's lines of SLO attainment, one per SLO. */
    public static final String SLO_LABEL = "slo";
    /** Label of the summary's goodput line. */
    public static final String GOODPUT_LABEL = "goodput";
    /** Label of the summary's load health line. */
    public static final String LOAD_LABEL = "load";
    /** {@code LoadHealth.arrival} of a closed loop (the others, poisson and constant, are open loops). */
    public static final String CLOSED_LOOP_ARRIVAL = "closed";
    /** SLO metrics that are fractions (0..1), shown with 3 decimals; the others (ms, tokens/s) with 1. */
    public static final Set<String> FRACTION_SLO_METRICS = Set.of("error_rate", "goodput");

    /** The metric columns of {@code tail reports}, in display order (ms, ms, ms, tokens/s). */
    public static final List<Column> TAIL_METRICS = List.of(
            new Column("ttft_p50", 9, "ttft_p50_ms"),
            new Column("ttft_p95", 9, "ttft_p95_ms"),
            new Column("e2e_p95", 9, "e2e_p95_ms"),
            new Column("tok/s", 10, "throughput_tok_s"));

    private ReportView() {
    }

    /** Share of the in-flight cap at which an open loop that fell behind is said to be held by the cap. */
    public static final double CAP_REACHED_SHARE = 0.9;

    /**
     * Whether an open loop that fell behind its schedule was held back by the client's own in-flight cap
     * ({@code --max-in-flight}) rather than by the endpoint: its mean requests in flight reached
     * {@value #CAP_REACHED_SHARE} of the cap. Raising the cap then offers more load.
     *
     * @param load the run's load health, or null
     * @return true when the run fell behind and its mean in flight is at least 90% of the cap
     */
    public static boolean heldByInFlightCap(LoadHealth load) {
        return load != null && load.getBehindSchedule() && !CLOSED_LOOP_ARRIVAL.equals(load.getArrival())
                && load.getOfferedConcurrency() != null && load.getAchievedConcurrency() != null
                && load.getAchievedConcurrency() >= CAP_REACHED_SHARE * load.getOfferedConcurrency();
    }

    /**
     * @param load the run's load health; {@link #heldByInFlightCap} true
     * @return the hint that ends a behind-schedule warning, e.g. {@code "; the in-flight cap of 20 was
     *         reached (--max-in-flight): raise it to offer more"}
     */
    public static String inFlightCapHint(LoadHealth load) {
        return "; the in-flight cap of " + load.getOfferedConcurrency()
                + " was reached (--max-in-flight): raise it to offer more";
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

    /**
     * @param statistics the typed statistics, or null (reports written before they existed)
     * @param field a {@link Distribution} field of {@link RunStatistics}, or null
     * @return that distribution, or null when {@code statistics} or {@code field} is null
     * @throws org.apache.avro.AvroRuntimeException when {@link RunStatistics} has no such field
     */
    public static Distribution distribution(RunStatistics statistics, String field) {
        return statistics == null || field == null ? null : (Distribution) statistics.get(field);
    }
}

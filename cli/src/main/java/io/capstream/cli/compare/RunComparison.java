package io.capstream.cli.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two runs' reports side by side ({@code capstream compare A B}): per metric the value of A and of B,
 * the absolute change B - A, the relative change (B - A) / A and whether the change is better or worse,
 * and the workload settings that differ. A relative change within &plusmn;{@code threshold} is "same": single runs
 * have no confidence intervals yet, and a smaller change is within what repeating the same run moves the numbers by
 * ({@link #DEFAULT_THRESHOLD}).
 *
 * <p>Metrics, each row present when A or B has a value:
 * <ul>
 *   <li>latencies (ms, lower is better): TTFT, TTFO, E2E, ITL and inter-chunk at p50, p90, p95 and p99 from
 *       {@code capstream.statistics} (nearest-rank percentiles), falling back to the anvil {@code metrics}
 *       p50/p95 for reports without statistics;</li>
 *   <li>throughputs (higher is better): output tokens/s ({@code metrics.throughput_tok_s}), requests/s and
 *       total tokens/s ({@code capstream.statistics});</li>
 *   <li>completed and failed requests (counts that follow the workload: no verdict) and the error rate,
 *       failed / (completed + failed) (lower is better);</li>
 *   <li>goodput (share of requests meeting every SLO) and goodput rate (req/s) ({@code capstream.slo}), higher is
 *       better, when a report has them.</li>
 * </ul>
 *
 * @param runA     A's run id
 * @param runB     B's run id
 * @param metrics  the metric rows, in the order above
 * @param workload  the workload keys whose values differ, in {@link #WORKLOAD_KEYS} order
 * @param threshold the relative change (fraction of A) within which a metric counts as unchanged, &gt;= 0
 */
public record RunComparison(String runA, String runB, List<MetricChange> metrics, List<WorkloadDifference> workload,
                            double threshold) {
    /**
     * Default {@code threshold}: 5 %. Three identical 200-request runs against the built-in sim on a busy 2-core
     * machine (docs/user-guide.md, "Reading the report and the page; compare") differed by up to 3.9 % in throughput and 1.5 % at p50 (TTFT, E2E, ITL), so
     * a smaller change there is noise, not a difference one run can show. Their tails moved more (p90 up to 14 %,
     * p95/p99 up to 43 %, inter-chunk p99 up to 114 %) than a fixed threshold can absorb: judge tails over repeated
     * runs.
     */
    public static final double DEFAULT_THRESHOLD = 0.05;

    /**
     * Top-level artifact keys compared as the workload (objects flattened to dotted keys), then the
     * {@code capstream.} keys.
     */
    public static final List<String> WORKLOAD_KEYS = List.of("base_url", "model", "engine", "measurement_protocol",
            "requests", "concurrency", "context_tokens", "context_distribution", "context_seed", "max_context_tokens",
            "max_tokens", "gpu", "tier", "serve_flags");
    /** Keys under {@code capstream} compared as the workload (objects flattened). */
    public static final List<String> CAPSTREAM_WORKLOAD_KEYS = List.of("run", "capstream_version", "kind");

    /** The latency distributions: statistics key, label, fallback anvil metric fields for p50 and p95. */
    private static final List<String[]> LATENCIES = List.of(
            new String[] {"ttft_ms", "TTFT", "ttft_p50_ms", "ttft_p95_ms"},
            new String[] {"ttfo_ms", "TTFO", "time_to_first_output_p50_ms", "time_to_first_output_p95_ms"},
            new String[] {"e2e_ms", "E2E", "e2e_p50_ms", "e2e_p95_ms"},
            new String[] {"itl_ms", "ITL", "mean_inter_token_latency_ms_p50", "mean_inter_token_latency_ms_p95"},
            new String[] {"inter_chunk_ms", "inter-chunk", null, null});
    private static final List<String> PERCENTILES = List.of("p50", "p90", "p95", "p99");

    /** Which way a metric improves. */
    public enum Direction {
        /** Latencies, failures. */
        LOWER_IS_BETTER,
        /** Throughputs, goodput. */
        HIGHER_IS_BETTER,
        /** Counts that follow the workload (completed, failed requests): no verdict. */
        NEITHER
    }

    /** What a change means for the metric. */
    public enum Verdict {
        /** B is better than A. */
        BETTER,
        /** B is worse than A. */
        WORSE,
        /** B equals A. */
        UNCHANGED
    }

    /** A metric's unit and how its values print. */
    public enum Unit {
        /** Milliseconds. */
        MS("ms", "%.1f"),
        /** Tokens per second. */
        TOK_S("tok/s", "%.1f"),
        /** Requests per second. */
        REQ_S("req/s", "%.2f"),
        /** A number of requests. */
        COUNT("", "%.0f"),
        /** A share between 0 and 1. */
        FRACTION("", "%.3f");

        private final String label;
        private final String format;

        Unit(String label, String format) {
            this.label = label;
            this.format = format;
        }

        /** @return the unit as printed ({@code ms}, {@code tok/s}, {@code req/s}, or empty) */
        public String label() {
            return label;
        }

        /** @return the {@link String#format} pattern of one value, e.g. {@code %.1f} */
        public String format() {
            return format;
        }
    }

    /**
     * One metric of both runs.
     *
     * @param name      e.g. {@code TTFT p95}
     * @param unit      its unit
     * @param direction which way it improves
     * @param a         A's value, or null when A's report has none
     * @param b         B's value, or null when B's report has none
     * @param threshold the largest relative change, as a fraction of A (0.02 = 2 %), that is no change: run-to-run
     *                  noise rather than a difference (until comparisons have confidence intervals); &gt;= 0
     */
    public record MetricChange(String name, Unit unit, Direction direction, Double a, Double b, double threshold) {
        /**
         * Checks the name, unit, direction and threshold.
         *
         * @throws IllegalArgumentException when the threshold is negative or not finite
         */
        public MetricChange {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(direction, "direction");
            if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                throw new IllegalArgumentException("threshold must be a finite fraction >= 0, got " + threshold);
            }
        }

        /**
         * A change judged with the {@link #DEFAULT_THRESHOLD}.
         *
         * @param name      e.g. {@code TTFT p95}
         * @param unit      its unit
         * @param direction which way it improves
         * @param a         A's value, or null
         * @param b         B's value, or null
         */
        public MetricChange(String name, Unit unit, Direction direction, Double a, Double b) {
            this(name, unit, direction, a, b, DEFAULT_THRESHOLD);
        }

        /** @return B - A in the metric's unit, or null when either is missing */
        public Double absolute() {
            return a == null || b == null ? null : b - a;
        }

        /** @return (B - A) / A (0.123 = +12.3 %), or null when either is missing or A is 0 */
        public Double relative() {
            return a == null || b == null || a == 0 ? null : (b - a) / a;
        }

        /**
         * @return whether B is better or worse than A; {@link Verdict#UNCHANGED} when B equals A, or when the relative
         *     change, at the 0.1 % the table prints it with, is within &plusmn;{@link #threshold} (so that a printed
         *     {@code +2.0%} is "same" at a 2 % threshold and {@code +2.1%} is not); a change from A = 0 always has a
         *     verdict; null when either value is missing or the metric has no direction ({@link Direction#NEITHER})
         */
        public Verdict verdict() {
            if (a == null || b == null || direction == Direction.NEITHER) {
                return null;
            }
            int c = Double.compare(b, a);
            if (c == 0) {
                return Verdict.UNCHANGED;
            }
            Double rel = relative();
            if (rel != null && Math.round(Math.abs(rel) * 1000) <= Math.round(threshold * 1000)) {
                return Verdict.UNCHANGED;
            }
            boolean lower = c < 0;
            return lower == (direction == Direction.LOWER_IS_BETTER) ? Verdict.BETTER : Verdict.WORSE;
        }
    }

    /**
     * A workload setting that differs.
     *
     * @param key the artifact key, dotted for nested ones (e.g. {@code capstream.run.arrival})
     * @param a   A's value as text, or null when A has none
     * @param b   B's value as text, or null when B has none
     */
    public record WorkloadDifference(String key, String a, String b) {
    }

    /**
     * Copies the lists.
     *
     * @throws IllegalArgumentException when the threshold is negative or not finite
     */
    public RunComparison {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold must be a finite fraction >= 0, got " + threshold);
        }
        metrics = List.copyOf(metrics);
        workload = List.copyOf(workload);
    }

    /**
     * A comparison whose metrics were judged with the {@link #DEFAULT_THRESHOLD}.
     *
     * @param runA     A's run id
     * @param runB     B's run id
     * @param metrics  the metric rows
     * @param workload the differing workload keys
     */
    public RunComparison(String runA, String runB, List<MetricChange> metrics, List<WorkloadDifference> workload) {
        this(runA, runB, metrics, workload, DEFAULT_THRESHOLD);
    }

    /**
     * @param a A's report artifact; not null
     * @param b B's report artifact; not null
     * @return the comparison of B against A, with the {@link #DEFAULT_THRESHOLD}
     */
    public static RunComparison of(JsonNode a, JsonNode b) {
        return of(a, b, DEFAULT_THRESHOLD);
    }

    /**
     * @param a         A's report artifact; not null
     * @param b         B's report artifact; not null
     * @param threshold the relative change (fraction of A, e.g. 0.05) within which a metric is "same"; &gt;= 0
     * @return the comparison of B against A
     * @throws IllegalArgumentException when the threshold is negative or not finite
     */
    public static RunComparison of(JsonNode a, JsonNode b, double threshold) {
        List<MetricChange> metrics = new ArrayList<>();
        for (String[] l : LATENCIES) {
            for (String p : PERCENTILES) {
                String fallback = p.equals("p50") ? l[2] : p.equals("p95") ? l[3] : null;
                add(metrics, threshold, l[1] + " " + p, Unit.MS, Direction.LOWER_IS_BETTER,
                        latency(a, l[0], p, fallback), latency(b, l[0], p, fallback));
            }
        }
        add(metrics, threshold, "output throughput", Unit.TOK_S, Direction.HIGHER_IS_BETTER, outputThroughput(a),
                outputThroughput(b));
        add(metrics, threshold, "request throughput", Unit.REQ_S, Direction.HIGHER_IS_BETTER,
                number(statistics(a).get("request_throughput_rps")),
                number(statistics(b).get("request_throughput_rps")));
        add(metrics, threshold, "total token throughput", Unit.TOK_S, Direction.HIGHER_IS_BETTER,
                number(statistics(a).get("total_token_throughput_tok_s")),
                number(statistics(b).get("total_token_throughput_tok_s")));
        add(metrics, threshold, "completed", Unit.COUNT, Direction.NEITHER, number(a.get("completed")),
                number(b.get("completed")));
        add(metrics, threshold, "failed", Unit.COUNT, Direction.NEITHER, number(a.get("failed")),
                number(b.get("failed")));
        add(metrics, threshold, "error rate", Unit.FRACTION, Direction.LOWER_IS_BETTER, errorRate(a), errorRate(b));
        add(metrics, threshold, "goodput", Unit.FRACTION, Direction.HIGHER_IS_BETTER, number(slo(a).get("goodput")),
                number(slo(b).get("goodput")));
        add(metrics, threshold, "goodput rate", Unit.REQ_S, Direction.HIGHER_IS_BETTER,
                number(slo(a).get("goodput_rps")), number(slo(b).get("goodput_rps")));
        return new RunComparison(a.path("run_id").asText(null), b.path("run_id").asText(null), metrics,
                workloadDifferences(a, b), threshold);
    }

    /**
     * @param a A's report artifact; not null
     * @param b B's report artifact; not null
     * @return the workload keys ({@link #WORKLOAD_KEYS}, then {@code capstream.}{@link #CAPSTREAM_WORKLOAD_KEYS})
     *         whose values differ, nested objects compared key by key
     */
    static List<WorkloadDifference> workloadDifferences(JsonNode a, JsonNode b) {
        List<WorkloadDifference> out = new ArrayList<>();
        for (String k : WORKLOAD_KEYS) {
            differences(k, a.get(k), b.get(k), out);
        }
        for (String k : CAPSTREAM_WORKLOAD_KEYS) {
            differences("capstream." + k, a.path("capstream").get(k), b.path("capstream").get(k), out);
        }
        return out;
    }

    /** Adds the differing flattened keys of one workload key, A's keys first, then the ones only B has. */
    private static void differences(String key, JsonNode a, JsonNode b, List<WorkloadDifference> out) {
        Map<String, String> wa = new LinkedHashMap<>();
        Map<String, String> wb = new LinkedHashMap<>();
        flatten(key, a, wa);
        flatten(key, b, wb);
        Set<String> keys = new LinkedHashSet<>(wa.keySet());
        keys.addAll(wb.keySet());
        for (String k : keys) {
            if (!Objects.equals(wa.get(k), wb.get(k))) {
                out.add(new WorkloadDifference(k, wa.get(k), wb.get(k)));
            }
        }
    }

    private static void flatten(String key, JsonNode n, Map<String, String> out) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return;
        }
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(key + "." + e.getKey(), e.getValue(), out);
            }
            return;
        }
        out.put(key, n.isValueNode() ? n.asText() : n.toString());
    }

    /** @return failed / (completed + failed), or null when the report has neither count or no requests */
    private static Double errorRate(JsonNode artifact) {
        Double completed = number(artifact.get("completed"));
        Double failed = number(artifact.get("failed"));
        if (completed == null || failed == null || completed + failed == 0) {
            return null;
        }
        return failed / (completed + failed);
    }

    private static void add(List<MetricChange> out, double threshold, String name, Unit unit, Direction d, Double a,
                            Double b) {
        if (a != null || b != null) {
            out.add(new MetricChange(name, unit, d, a, b, threshold));
        }
    }

    private static Double latency(JsonNode artifact, String distribution, String percentile, String fallbackField) {
        Double v = number(statistics(artifact).path(distribution).get(percentile));
        if (v == null && fallbackField != null) {
            v = number(artifact.path("metrics").get(fallbackField));
        }
        return v;
    }

    private static Double outputThroughput(JsonNode artifact) {
        Double v = number(artifact.path("metrics").get("throughput_tok_s"));
        return v != null ? v : number(statistics(artifact).get("output_throughput_tok_s"));
    }

    private static JsonNode statistics(JsonNode artifact) {
        return artifact.path("capstream").path("statistics");
    }

    private static JsonNode slo(JsonNode artifact) {
        return artifact.path("capstream").path("slo");
    }

    private static Double number(JsonNode n) {
        return n != null && n.isNumber() ? n.doubleValue() : null;
    }
}

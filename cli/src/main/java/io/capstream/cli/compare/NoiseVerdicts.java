package io.capstream.cli.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.stats.ChangeVerdict;
import io.capstream.aggregator.stats.PercentileDifference;
import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.cli.compare.RunComparison.Direction;
import io.capstream.cli.compare.RunComparison.MetricChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The noise-aware verdicts of a {@link RunComparison} (issue 32): for each metric row, B&nbsp;&minus;&nbsp;A with a
 * 95% bootstrap interval over both reports' per-request samples ({@code request_timings[]}, {@link
 * PercentileDifference}) and a {@link ChangeVerdict}; for a row without an interval, the reason instead (no
 * per-request samples, one number per run, too few values for that percentile, no direction). Shared by
 * {@code compare} and {@code rerun}.
 *
 * @param rows one per row of the comparison, in its order
 */
public record NoiseVerdicts(List<Row> rows) {
    /** The confidence level of every interval, 0.95. */
    public static final double LEVEL = QuantileInterval.DEFAULT_LEVEL;
    /** The reason printed when a report has no per-request rows (e.g. an imported artifact with summary numbers). */
    public static final String NO_SAMPLES = "no per-request samples: no interval";

    /** The metrics with per-request samples: the row label, its report key pattern and its request_timings column. */
    private static final List<String[]> SAMPLED = List.of(
            new String[] {"TTFT", "ttft_%s_ms", "ttft_ms"},
            new String[] {"TTFO", "time_to_first_output_%s_ms", "time_to_first_output_ms"},
            new String[] {"E2E", "e2e_%s_ms", "e2e_ms"},
            new String[] {"ITL", "mean_inter_token_latency_ms_%s", "mean_inter_token_latency_ms"},
            new String[] {"inter-chunk", "inter_chunk_%s_ms", null});
    /** The run-level rows: label to report key. */
    private static final Map<String, String> RUN_LEVEL = Map.of("output throughput", "throughput_tok_s",
            "request throughput", "request_throughput_rps", "total token throughput", "total_token_throughput_tok_s",
            "completed", "completed", "failed", "failed", "error rate", "error_rate", "goodput", "goodput",
            "goodput rate", "goodput_rps");

    /**
     * One metric's verdict.
     *
     * @param change  the comparison's row (A, B, unit, direction); not null
     * @param key     the metric's report name, e.g. {@code ttft_p50_ms} (the anvil {@code metrics} name where one
     *                exists, the same pattern for the other percentiles)
     * @param low     the interval's lower end of B - A, or null when there is none
     * @param high    its upper end, or null
     * @param verdict the verdict, or null when there is no interval
     * @param reason  why there is no interval (e.g. {@link #NO_SAMPLES}), or null when there is one
     */
    public record Row(MetricChange change, String key, Double low, Double high, ChangeVerdict verdict,
                      String reason) {
        /** @return whether the interval and verdict exist */
        public boolean hasVerdict() {
            return verdict != null;
        }

        /**
         * @param threshold a relative change, fraction of A (0.1 = 10 %), &ge; 0
         * @return whether B is a regression whose whole interval lies beyond {@code threshold} &times; |A| on the
         *     worse side (with 0: whether the verdict is a regression); false without a verdict
         */
        public boolean regressedBeyond(double threshold) {
            if (verdict != ChangeVerdict.REGRESSION) {
                return false;
            }
            double margin = threshold * Math.abs(change.a());
            return ChangeVerdict.of(low, high, change.direction() == Direction.LOWER_IS_BETTER, margin)
                    == ChangeVerdict.REGRESSION;
        }
    }

    /**
     * Copies the rows.
     */
    public NoiseVerdicts {
        rows = List.copyOf(rows);
    }

    /**
     * @param c the comparison; not null
     * @param a A's report artifact (the comparison's A); not null
     * @param b B's report artifact; not null
     * @return the verdict of every row of {@code c}
     */
    public static NoiseVerdicts of(RunComparison c, JsonNode a, JsonNode b) {
        Map<String, double[]> samplesA = new LinkedHashMap<>();
        Map<String, double[]> samplesB = new LinkedHashMap<>();
        List<Row> out = new ArrayList<>();
        for (MetricChange m : c.metrics()) {
            String[] sampled = sampled(m.name());
            if (sampled == null) {
                String key = RUN_LEVEL.getOrDefault(m.name(), m.name().replace(' ', '_'));
                out.add(new Row(m, key, null, null, null, m.direction() == Direction.NEITHER
                        ? "follows the workload: no verdict" : "one number per run: no interval"));
                continue;
            }
            String percentile = m.name().substring(m.name().lastIndexOf(' ') + 1);
            String key = String.format(sampled[1], percentile);
            int q = Integer.parseInt(percentile.substring(1));
            if (sampled[2] == null) {
                out.add(new Row(m, key, null, null, null, NO_SAMPLES));
                continue;
            }
            double[] va = samplesA.computeIfAbsent(sampled[2], col -> column(a, col));
            double[] vb = samplesB.computeIfAbsent(sampled[2], col -> column(b, col));
            out.add(row(m, key, q, va, vb));
        }
        return new NoiseVerdicts(out);
    }

    /** @return the verdicts keyed by {@link Row#key()}, in row order */
    public Map<String, Row> byKey() {
        Map<String, Row> m = new LinkedHashMap<>();
        rows.forEach(r -> m.put(r.key(), r));
        return m;
    }

    /**
     * @return every key {@link #of} can give a verdict for (the percentile rows of TTFT, TTFO, E2E and ITL), e.g.
     *     {@code ttft_p50_ms}, for checking {@code --fail-on-regression} names
     */
    public static List<String> verdictKeys() {
        List<String> keys = new ArrayList<>();
        for (String[] s : SAMPLED) {
            if (s[2] != null) {
                for (String p : List.of("p50", "p90", "p95", "p99")) {
                    keys.add(String.format(s[1], p));
                }
            }
        }
        return keys;
    }

    private static Row row(MetricChange m, String key, int q, double[] va, double[] vb) {
        if (m.a() == null || m.b() == null) {
            return new Row(m, key, null, null, null, "missing in " + (m.a() == null ? "A" : "B") + ": no interval");
        }
        if (va == null || vb == null || va.length == 0 || vb.length == 0) {
            return new Row(m, key, null, null, null, NO_SAMPLES);
        }
        PercentileDifference.Result r = PercentileDifference.of(va, vb, q, LEVEL);
        if (!r.hasInterval()) {
            return new Row(m, key, null, null, null, r.reason());
        }
        ChangeVerdict v = ChangeVerdict.of(r.low(), r.high(), m.direction() == Direction.LOWER_IS_BETTER, 0);
        return new Row(m, key, r.low(), r.high(), v, null);
    }

    /** @return the latency definition of a row label such as {@code TTFT p95}, or null for a run-level row */
    private static String[] sampled(String name) {
        for (String[] s : SAMPLED) {
            if (name.startsWith(s[0] + " p")) {
                return s;
            }
        }
        return null;
    }

    /** @return the non-null numbers of one request_timings column, or null when the report has no rows */
    private static double[] column(JsonNode artifact, String column) {
        JsonNode rows = artifact.get("request_timings");
        if (rows == null || !rows.isArray() || rows.isEmpty()) {
            return null;
        }
        List<Double> values = new ArrayList<>();
        for (JsonNode row : rows) {
            JsonNode v = row.get(column);
            if (v != null && v.isNumber() && Double.isFinite(v.doubleValue())) {
                values.add(v.doubleValue());
            }
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}

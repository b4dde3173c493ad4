package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The run page's percentile chart (issue 32): p50, p95 and p99 of TTFT and E2E (of the request latency for endpoints
 * without tokens: embeddings, rerank) from {@code capstream.statistics}, each with its 95% confidence interval
 * ({@code pNN_ci}) as an error bar; a percentile without an interval (too few values) is drawn without a bar. Only
 * for reports with intervals (a report from before them has its percentiles in the table and the CDFs). Stateless.
 */
final class PercentileIntervals {
    /** The x categories, in order. */
    static final List<String> PERCENTILES = List.of("p50", "p95", "p99");
    private static final List<String> KEYS = List.of("ttft_ms", "e2e_ms", "request_latency_ms");
    private static final List<String> LABELS = List.of("TTFT", "E2E", "request latency");

    private PercentileIntervals() {
    }

    /**
     * @param id    the chart's id
     * @param stats {@code capstream.statistics}, possibly missing
     * @return the chart, or null when no measure has a percentile, or the report has no interval information (no
     *         {@code pNN_ci} and no {@code ci_unavailable}: a report from before intervals)
     */
    static Chart chart(String id, JsonNode stats) {
        List<Chart.Series> series = new ArrayList<>();
        boolean intervals = false;
        for (int k = 0; k < KEYS.size(); k++) {
            JsonNode d = stats.path(KEYS.get(k));
            double[] y = new double[PERCENTILES.size()];
            double[][] errors = new double[PERCENTILES.size()][];
            boolean any = false;
            intervals |= d.has("ci_unavailable");
            for (int p = 0; p < y.length; p++) {
                JsonNode v = d.path(PERCENTILES.get(p));
                y[p] = v.isNumber() ? v.doubleValue() : Double.NaN;
                any |= v.isNumber();
                JsonNode ci = d.path(PERCENTILES.get(p) + "_ci");
                if (ci.isArray() && ci.size() == 2 && ci.get(0).isNumber() && ci.get(1).isNumber()) {
                    errors[p] = new double[] {ci.get(0).doubleValue(), ci.get(1).doubleValue()};
                    intervals = true;
                }
            }
            if (any) {
                series.add(new Chart.Series(LABELS.get(k), y, Chart.Series.Style.DEFAULT, errors));
            }
        }
        if (series.isEmpty() || !intervals) {
            return null;
        }
        return new Chart(id, "Latency percentiles with their 95% confidence intervals", "percentile", "ms",
                Chart.Kind.POINTS, new double[] {0, 1, 2}, series);
    }
}

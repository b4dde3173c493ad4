package io.capstream.cli.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.html.Chart;
import io.capstream.aggregator.html.HtmlPage;
import io.capstream.cli.compare.RunComparison.MetricChange;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side HTML page of two runs ({@code capstream compare A B --html FILE}), built with
 * {@link HtmlPage} (self-contained, offline, every report text escaped by it): the metric table of the
 * {@link RunComparison}, the workload differences, and the CDFs of TTFT and of E2E of A and B overlaid
 * (two series per chart, from each report's {@code request_timings}: the fraction of successful
 * requests at or below each latency). Stateless.
 */
public final class ComparePage {
    private ComparePage() {
    }

    /**
     * @param c the comparison of B against A; not null
     * @param a A's report artifact; not null
     * @param b B's report artifact; not null
     * @return the HTML document
     */
    public static String render(RunComparison c, JsonNode a, JsonNode b) {
        String labelA = "A " + text(c.runA());
        String labelB = "B " + text(c.runB());
        HtmlPage page = HtmlPage.titled("capstream compare " + text(c.runA()) + " vs " + text(c.runB()))
                .paragraph(labelA + " (" + text(a.path("model").asText(null)) + " at "
                        + text(a.path("base_url").asText(null)) + "); " + labelB + " ("
                        + text(b.path("model").asText(null)) + " at " + text(b.path("base_url").asText(null)) + ")")
                .heading("Metrics")
                .table(List.of("metric", "unit", "A", "B", "B-A", "change", ""), metricRows(c))
                .heading("Workload differences");
        if (c.workload().isEmpty()) {
            page.paragraph("The workloads are the same.");
        } else {
            List<List<String>> rows = new ArrayList<>();
            for (WorkloadDifference w : c.workload()) {
                rows.add(List.of(w.key(), text(w.a()), text(w.b())));
            }
            page.table(List.of("setting", "A", "B"), rows);
        }
        page.heading("Latency distributions");
        cdf("ttft-cdf", "TTFT, cumulative distribution", "TTFT (ms)", "ttft_ms", a, b, labelA, labelB, page);
        cdf("e2e-cdf", "E2E, cumulative distribution", "E2E (ms)", "e2e_ms", a, b, labelA, labelB, page);
        return page.render();
    }

    private static List<List<String>> metricRows(RunComparison c) {
        List<List<String>> rows = new ArrayList<>();
        for (MetricChange m : c.metrics()) {
            String fmt = m.unit().format();
            rows.add(List.of(m.name(), m.unit().label(), CompareTable.value(fmt, m.a()), CompareTable.value(fmt, m.b()),
                    CompareTable.signed(fmt, m.absolute()), CompareTable.percent(m.relative()),
                    m.verdict() == null || m.verdict() == RunComparison.Verdict.UNCHANGED ? ""
                            : m.verdict().name().toLowerCase(Locale.ROOT)));
        }
        return rows;
    }

    /** Adds the chart of both runs' CDFs of one request_timings key, or a paragraph when neither has values. */
    private static void cdf(String id, String title, String xLabel, String key, JsonNode a, JsonNode b, String labelA,
                            String labelB, HtmlPage page) {
        Chart chart = cdfChart(id, title, xLabel, samples(a, key), samples(b, key), labelA, labelB);
        if (chart == null) {
            page.paragraph(title + ": no request timings in either report.");
        } else {
            page.chart(chart);
        }
    }

    /**
     * Two empirical CDFs on one x axis: the sorted distinct values of both samples; each series is the
     * fraction of its sample at or below x (0 before its smallest value, 1 from its largest on).
     *
     * @param sampleA A's values (any order); not null
     * @param sampleB B's values; not null
     * @return the chart, or null when both samples are empty
     */
    static Chart cdfChart(String id, String title, String xLabel, double[] sampleA, double[] sampleB, String labelA,
                          String labelB) {
        if (sampleA.length == 0 && sampleB.length == 0) {
            return null;
        }
        double[] sa = sampleA.clone();
        double[] sb = sampleB.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        double[] x = java.util.stream.DoubleStream.concat(Arrays.stream(sa), Arrays.stream(sb)).sorted().distinct()
                .toArray();
        return new Chart(id, title, xLabel, "fraction of requests", Chart.Kind.STEP, x,
                List.of(new Chart.Series(labelA, fractions(sa, x)), new Chart.Series(labelB, fractions(sb, x))));
    }

    /** @return for each x, the share of the sorted sample at or below it; NaN for an empty sample */
    private static double[] fractions(double[] sorted, double[] x) {
        double[] y = new double[x.length];
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            while (k < sorted.length && sorted[k] <= x[i]) {
                k++;
            }
            y[i] = sorted.length == 0 ? Double.NaN : (double) k / sorted.length;
        }
        return y;
    }

    private static double[] samples(JsonNode artifact, String key) {
        List<Double> out = new ArrayList<>();
        for (JsonNode row : artifact.path("request_timings")) {
            JsonNode v = row.get(key);
            if (v != null && v.isNumber() && Double.isFinite(v.doubleValue())) {
                out.add(v.doubleValue());
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String text(String s) {
        return s == null ? "-" : s;
    }
}

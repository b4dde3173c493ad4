package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloParseException;
import io.capstream.aggregator.slo.SloParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The capacity-curve charts of a sweep ({@code sweep.json}): latency percentiles (y, ms) against the
 * achieved throughput of each step (x: completed req/s, or output tokens/s when no step has a request
 * rate), with each matching SLO threshold as a dashed constant series and the step of the largest load
 * meeting the SLOs as a marker series "max load meeting SLOs". Stateless.
 */
final class SweepCurveSeries {
    /** Label of the marker series. */
    static final String MARKER = "max load meeting SLOs";

    private final List<JsonNode> points;
    private final String xKey;
    private final String xLabel;
    private final List<Slo> slos;
    private final int maxStep;

    /**
     * @param sweep the sweep.json tree
     */
    SweepCurveSeries(JsonNode sweep) {
        List<JsonNode> all = new ArrayList<>();
        sweep.path("points").forEach(all::add);
        boolean anyRps = all.stream().anyMatch(p -> p.path("requests_per_s").isNumber());
        xKey = anyRps ? "requests_per_s" : "output_tok_s";
        xLabel = anyRps ? "achieved request throughput (req/s)" : "achieved output throughput (tokens/s)";
        List<JsonNode> withX = new ArrayList<>();
        for (JsonNode p : all) {
            if (p.path(xKey).isNumber()) {
                withX.add(p);
            }
        }
        withX.sort(Comparator.comparingDouble((JsonNode p) -> p.path(xKey).doubleValue())
                .thenComparingInt(p -> p.path("step").asInt()));
        points = withX;
        slos = parse(sweep.path("slos"));
        JsonNode max = sweep.path("max_load_meeting_slos");
        maxStep = max.path("step").isInt() ? max.path("step").intValue() : -1;
    }

    /** @return the x axis label (with unit) */
    String xLabel() {
        return xLabel;
    }

    /** @return the steps that have an x value, ascending by it */
    List<JsonNode> points() {
        return points;
    }

    /**
     * A latency chart of the curve.
     *
     * @param id      chart id
     * @param title   chart title
     * @param prefix  the SLO metric prefix of this family ("ttft", "e2e", "itl")
     * @param labels  legend labels of the percentile series
     * @param keys    the SweepPoint keys of the percentile series (ms)
     * @return the chart, or null when no step has any of these values
     */
    Chart latency(String id, String title, String prefix, List<String> labels, List<String> keys) {
        int n = points.size();
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = points.get(i).path(xKey).doubleValue();
        }
        List<Chart.Series> series = new ArrayList<>();
        boolean any = false;
        for (int k = 0; k < keys.size(); k++) {
            double[] y = column(keys.get(k));
            for (double v : y) {
                any |= Double.isFinite(v);
            }
            series.add(new Chart.Series(labels.get(k), y));
        }
        if (!any) {
            return null;
        }
        // the marker sits on the first SLO's percentile of this family, else on p95
        String markerKey = null;
        for (Slo s : slos) {
            if (s.metric().startsWith(prefix + "_p") && s.metric().endsWith("_ms")) {
                double[] y = new double[n];
                java.util.Arrays.fill(y, s.threshold());
                series.add(new Chart.Series("SLO " + s.text(), y, Chart.Series.Style.DASHED));
                if (markerKey == null && keys.contains(s.metric())) {
                    markerKey = s.metric();
                }
            }
        }
        if (markerKey == null) {
            markerKey = keys.contains(prefix + "_p95_ms") ? prefix + "_p95_ms" : keys.get(0);
        }
        if (maxStep >= 0) {
            double[] marker = new double[n];
            java.util.Arrays.fill(marker, Double.NaN);
            boolean found = false;
            for (int i = 0; i < n; i++) {
                if (points.get(i).path("step").asInt() == maxStep && points.get(i).path(markerKey).isNumber()) {
                    marker[i] = points.get(i).path(markerKey).doubleValue();
                    found = true;
                }
            }
            if (found) {
                series.add(new Chart.Series(MARKER, marker, Chart.Series.Style.MARKERS));
            }
        }
        return new Chart(id, title, xLabel, "latency (ms)", Chart.Kind.LINE, x, series);
    }

    /**
     * @param key a SweepPoint key
     * @return its values over {@link #points()}, NaN where null
     */
    double[] column(String key) {
        double[] y = new double[points.size()];
        for (int i = 0; i < y.length; i++) {
            JsonNode v = points.get(i).path(key);
            y[i] = v.isNumber() ? v.doubleValue() : Double.NaN;
        }
        return y;
    }

    private static List<Slo> parse(JsonNode texts) {
        List<Slo> out = new ArrayList<>();
        for (JsonNode t : texts) {
            try {
                out.add(SloParser.parse(t.asText()));
            } catch (SloParseException e) {
                // an SLO this version cannot read is listed in the page's text but not drawn
            }
        }
        return out;
    }
}

package io.capstream.aggregator.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The per-request timeline chart: x = time since the run's start (s), y = request index, one point per
 * event. Series "start" (every request), "first token" and "end" (successes), and one series
 * "failed: TYPE (N)" per error type (at the failure's end; N = that type's failures in the whole timeline),
 * drawn as {@link Chart.Series.Style#FAILURE} crosses so that failures stand out. Large runs are sampled: every k-th request
 * (by position in the timeline), k = ceil(n / maxRequests).
 *
 * @param chart   the POINTS chart, x ascending
 * @param stride  k: every k-th request is drawn (1 = all)
 * @param drawn   requests drawn
 * @param total   requests in the timeline
 */
public record TimelineSeries(Chart chart, int stride, int drawn, int total) {
    /**
     * @param id          chart id
     * @param timeline    the run's timeline; not null
     * @param maxRequests the most requests drawn (at least 1)
     * @return the chart and how it was sampled
     */
    public static TimelineSeries of(String id, Timeline timeline, int maxRequests) {
        int n = timeline.size();
        int stride = Math.max(1, (n + maxRequests - 1) / maxRequests);
        TreeMap<String, Integer> failureSeries = new TreeMap<>();
        for (int i = 0; i < n; i += stride) {
            if (timeline.failed(i)) {
                failureSeries.putIfAbsent(timeline.errorType()[i], 0);
            }
        }
        TreeMap<String, Integer> failuresByType = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            if (timeline.failed(i)) {
                failuresByType.merge(timeline.errorType()[i], 1, Integer::sum);
            }
        }
        List<String> labels = new ArrayList<>(List.of("start", "first token", "end"));
        for (String type : failureSeries.keySet()) {
            failureSeries.put(type, labels.size());
            labels.add("failed: " + type + " (" + RunCharts.count(failuresByType.get(type)) + ")");
        }
        // events: (time s, series, request index)
        List<double[]> events = new ArrayList<>();
        int drawn = 0;
        for (int i = 0; i < n; i += stride) {
            drawn++;
            double y = timeline.requestIndex()[i];
            add(events, timeline.startMs()[i], 0, y);
            if (timeline.failed(i)) {
                add(events, timeline.endMs()[i], failureSeries.get(timeline.errorType()[i]), y);
            } else {
                add(events, timeline.firstTokenMs()[i], 1, y);
                add(events, timeline.endMs()[i], 2, y);
            }
        }
        events.sort((a, b) -> Double.compare(a[0], b[0]));
        double[] x = new double[events.size()];
        double[][] ys = new double[labels.size()][events.size()];
        for (double[] col : ys) {
            Arrays.fill(col, Double.NaN);
        }
        for (int p = 0; p < events.size(); p++) {
            double[] ev = events.get(p);
            x[p] = ev[0];
            ys[(int) ev[1]][p] = ev[2];
        }
        List<Chart.Series> series = new ArrayList<>();
        for (int s = 0; s < labels.size(); s++) {
            series.add(new Chart.Series(labels.get(s), ys[s], s < 3 ? Chart.Series.Style.DEFAULT
                    : Chart.Series.Style.FAILURE));
        }
        Chart chart = new Chart(id, "Per-request timeline", "time since start (s)", "request index",
                Chart.Kind.POINTS, x, series);
        return new TimelineSeries(chart, stride, drawn, n);
    }

    private static void add(List<double[]> events, double ms, int series, double y) {
        if (Double.isFinite(ms)) {
            events.add(new double[] {ms / 1000.0, series, y});
        }
    }
}

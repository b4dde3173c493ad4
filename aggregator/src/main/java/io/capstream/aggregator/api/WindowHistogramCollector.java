package io.capstream.aggregator.api;

import io.capstream.aggregator.window.LatencyMeasure;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Classic Prometheus histograms of every {@link LatencyMeasure}, cumulative over the windows this process closed
 * ({@link WindowTotals}): {@code <LatencyMeasure.prometheusName()>_bucket{target,model,context_bucket,le}},
 * {@code _sum} and {@code _count}, in seconds, with the GenAI bucket bounds {@link LatencyMeasure#BOUNDS_S} and a
 * {@code +Inf} bucket. The counts and sums are the windows' own ({@code WindowSummary.histograms}), added up, not
 * values recorded again. A measure appears once a window had a value of it. Thread-safe (reads a snapshot per scrape).
 */
final class WindowHistogramCollector implements MultiCollector {
    private static final List<Double> UPPER_BOUNDS = upperBounds();
    private final WindowTotals totals;

    /**
     * @param totals the totals to expose; not null
     */
    WindowHistogramCollector(WindowTotals totals) {
        this.totals = totals;
    }

    @Override
    public MetricSnapshots collect() {
        Map<LatencyMeasure, List<HistogramDataPointSnapshot>> points = new EnumMap<>(LatencyMeasure.class);
        for (WindowTotals.Snapshot s : totals.snapshot()) {
            s.histograms().forEach((measure, h) -> points.computeIfAbsent(measure, m -> new ArrayList<>())
                    .add(point(h, WindowSeriesLabels.of(s.key()), s.startEpochMs())));
        }
        List<MetricSnapshot> out = new ArrayList<>();
        points.forEach((m, p) -> out.add(new HistogramSnapshot(
                new MetricMetadata(m.prometheusName(), m.description() + ", seconds, over the windows this process "
                        + "closed", Unit.SECONDS), p)));
        return new MetricSnapshots(out);
    }

    private static HistogramDataPointSnapshot point(WindowTotals.Histogram h,
                                                    io.prometheus.metrics.model.snapshots.Labels labels, long createdMs) {
        List<Long> counts = Arrays.stream(h.counts()).boxed().toList();
        return new HistogramDataPointSnapshot(ClassicHistogramBuckets.of(UPPER_BOUNDS, counts), h.sumS(), labels,
                Exemplars.EMPTY, createdMs);
    }

    private static List<Double> upperBounds() {
        List<Double> b = new ArrayList<>(LatencyMeasure.BOUNDS_S);
        b.add(Double.POSITIVE_INFINITY);
        return List.copyOf(b);
    }

    @Override
    public List<String> getPrometheusNames() {
        return Arrays.stream(LatencyMeasure.values()).map(LatencyMeasure::prometheusName).toList();
    }
}

package io.capstream.aggregator.api;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The p50/p95/p99 of the latest closed window per target, model and context bucket as Prometheus
 * summaries ({@link WindowQuantile}): {@code name{...,quantile="0.95"}}, {@code TYPE summary}, the type
 * that a {@code quantile} label belongs to. Micrometer cannot expose quantiles computed elsewhere as a
 * summary, so this collector is registered on the {@code PrometheusRegistry} under Micrometer's
 * registry. No {@code _count} / {@code _sum}: a summary's count and sum are cumulative, these values
 * are one window's. A window without a quantity (e.g. TTFT when every request failed) removes that
 * quantity's series for its key until a window has it again. Thread-safe.
 */
final class WindowQuantileCollector implements MultiCollector {
    private final Map<WindowQuantile, Map<Labels, SummaryDataPointSnapshot>> latest = new EnumMap<>(WindowQuantile.class);

    WindowQuantileCollector() {
        for (WindowQuantile q : WindowQuantile.values()) {
            latest.put(q, new ConcurrentHashMap<>());
        }
    }

    /** Replaces the quantiles of the summary's target, model and context bucket. */
    void record(WindowSummary s) {
        Labels labels = Labels.of("context_bucket", s.getContextBucket(), "model", s.getModel(), "target", s.getTarget());
        latest.forEach((quantity, points) -> {
            Quantiles q = quantity.of(s);
            if (q == null) {
                points.remove(labels);
            } else {
                points.put(labels, point(q, quantity.scale, labels));
            }
        });
    }

    private static SummaryDataPointSnapshot point(Quantiles q, double scale, Labels labels) {
        io.prometheus.metrics.model.snapshots.Quantiles quantiles = io.prometheus.metrics.model.snapshots.Quantiles.of(
                new Quantile(0.5, q.getP50() * scale), new Quantile(0.95, q.getP95() * scale),
                new Quantile(0.99, q.getP99() * scale));
        return new SummaryDataPointSnapshot(-1, Double.NaN, quantiles, labels, Exemplars.EMPTY, 0L);
    }

    @Override
    public MetricSnapshots collect() {
        List<MetricSnapshot> snapshots = new ArrayList<>();
        latest.forEach((quantity, points) -> {
            if (!points.isEmpty()) {
                snapshots.add(new SummarySnapshot(new MetricMetadata(quantity.prometheusName, quantity.help, quantity.unit),
                        List.copyOf(points.values())));
            }
        });
        return new MetricSnapshots(snapshots);
    }

    @Override
    public List<String> getPrometheusNames() {
        return Arrays.stream(WindowQuantile.values()).map(q -> q.prometheusName).toList();
    }
}

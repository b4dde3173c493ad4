package io.capstream.aggregator.otlp;

import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.resources.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The points of one collection, grouped by metric name: several measures may share a name (streamed E2E and the
 * request latency of embeddings are both {@code gen_ai.client.inference.duration}, told apart by
 * {@code gen_ai.operation.name}), and every series adds its points to the same metrics. Not thread-safe: one per
 * collection.
 */
final class MetricBatch {
    private final Map<String, Histograms> histograms = new LinkedHashMap<>();
    private final Map<String, Counters> counters = new LinkedHashMap<>();

    /**
     * @param name        metric name
     * @param description one line; the distinct descriptions of a shared name are joined with "; "
     * @param unit        UCUM unit (the same for every point of a name)
     * @param point       a cumulative histogram point
     */
    void histogram(String name, String description, String unit, HistogramPointData point) {
        Histograms h = histograms.computeIfAbsent(name, n -> new Histograms(unit));
        h.descriptions.add(description);
        h.points.add(point);
    }

    /**
     * @param name        metric name
     * @param description one line
     * @param unit        UCUM unit
     * @param point       a cumulative, monotonic sum point
     */
    void counter(String name, String description, String unit, LongPointData point) {
        Counters c = counters.computeIfAbsent(name, n -> new Counters(unit));
        c.descriptions.add(description);
        c.points.add(point);
    }

    /**
     * @param resource the SDK's resource
     * @return one metric per name, histograms first
     */
    List<MetricData> build(Resource resource) {
        List<MetricData> out = new ArrayList<>();
        histograms.forEach((name, h) -> out.add(ProducedMetric.histogram(resource, name,
                String.join("; ", h.descriptions), h.unit, h.points)));
        counters.forEach((name, c) -> out.add(ProducedMetric.counter(resource, name,
                String.join("; ", c.descriptions), c.unit, c.points)));
        return out;
    }

    private static final class Histograms {
        final String unit;
        final Set<String> descriptions = new LinkedHashSet<>();
        final List<HistogramPointData> points = new ArrayList<>();

        Histograms(String unit) {
            this.unit = unit;
        }
    }

    private static final class Counters {
        final String unit;
        final Set<String> descriptions = new LinkedHashSet<>();
        final List<LongPointData> points = new ArrayList<>();

        Counters(String unit) {
            this.unit = unit;
        }
    }
}

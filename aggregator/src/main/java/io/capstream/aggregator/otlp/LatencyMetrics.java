package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.capstream.aggregator.window.LatencyMeasure;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import java.util.ArrayList;
import java.util.List;

/**
 * The latency histograms of a series: one explicit-bucket histogram point per {@link LatencyMeasure} that had values,
 * in seconds, with the measure's bucket bounds ({@link LatencyMeasure#BOUNDS_S}) and the bucket counts, sum and count
 * added up over the closed windows ({@link WindowTotals}). Named by {@link LatencyMeasure#otelName()} and/or
 * {@link LatencyMeasure#otelLegacyName()} as {@link OtlpNames} says; a measure without a GenAI name (TTFT) is
 * exported under its own {@code capstream.*} name whatever the choice. No min or max: windows do not keep them.
 */
final class LatencyMetrics {
    /** Unit of every latency, UCUM seconds. */
    static final String UNIT = "s";

    private LatencyMetrics() {
    }

    /**
     * @param s         the series
     * @param names     which names
     * @param provider  {@code gen_ai.provider.name}
     * @param nowNanos  collection time, epoch ns
     * @param out       where the points go
     */
    static void add(WindowTotals.Snapshot s, OtlpNames names, String provider, long nowNanos, MetricBatch out) {
        long startNanos = s.startEpochMs() * 1_000_000L;
        s.histograms().forEach((m, h) -> {
            Attributes attributes = GenAiAttributes.of(s.key(), provider, GenAiAttributes.operation(m)).build();
            HistogramPointData point = HistogramPointData.create(startNanos, Math.max(startNanos, nowNanos), attributes,
                    h.sumS(), false, 0, false, 0, h.boundsS(), boxed(h.counts()));
            if (names.current() || m.otelLegacyName() == null) {
                out.histogram(m.otelName(), m.description(), UNIT, point);
            }
            if (names.legacy() && m.otelLegacyName() != null) {
                out.histogram(m.otelLegacyName(), m.description(), UNIT, point);
            }
        });
    }

    private static List<Long> boxed(long[] counts) {
        List<Long> out = new ArrayList<>(counts.length);
        for (long c : counts) {
            out.add(c);
        }
        return out;
    }
}

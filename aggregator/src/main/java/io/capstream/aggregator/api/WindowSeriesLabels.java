package io.capstream.aggregator.api;

import io.prometheus.metrics.model.snapshots.Labels;

/** The Prometheus labels of one {@link WindowTotals} series: target, model and context_bucket. Stateless. */
final class WindowSeriesLabels {
    private WindowSeriesLabels() {
    }

    /**
     * @param key the series; not null
     * @return its labels {@code context_bucket}, {@code model}, {@code target}
     */
    static Labels of(WindowTotals.SeriesKey key) {
        return Labels.of("context_bucket", key.contextBucket(), "model", key.model(), "target", key.target());
    }
}

package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Turns the cumulative totals of the closed windows ({@link WindowTotals#snapshot()}) into OpenTelemetry metrics at
 * each collection: latency histograms ({@link LatencyMetrics}), token usage ({@link TokenMetrics}) and requests by
 * outcome ({@link RequestMetrics}), all cumulative from the series' start ({@code startEpochMs}). Registered on the
 * SDK's meter provider, so that the pre-bucketed window histograms reach the exporter as they are (SDK instruments
 * record single values). Thread-safe as its source is: called on the export thread.
 */
public final class WindowMetricProducer implements MetricProducer {
    private final Supplier<? extends Collection<WindowTotals.Snapshot>> source;
    private final OtlpNames names;
    private final String provider;
    private final Clock clock;

    /**
     * @param source   the series to export, e.g. {@code totals::snapshot}; not null
     * @param names    which GenAI names; not null
     * @param provider {@code gen_ai.provider.name}; not null
     * @param clock    stamps each collection (the points' time); not null
     */
    public WindowMetricProducer(Supplier<? extends Collection<WindowTotals.Snapshot>> source, OtlpNames names,
                                String provider, Clock clock) {
        this.source = Objects.requireNonNull(source, "source");
        this.names = Objects.requireNonNull(names, "names");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param resource the SDK's resource; not null
     * @return every metric of every series; empty before the first window closed (the SDK then sends nothing)
     */
    @Override
    public Collection<MetricData> produce(Resource resource) {
        Collection<WindowTotals.Snapshot> series = source.get();
        if (series.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        MetricBatch batch = new MetricBatch();
        for (WindowTotals.Snapshot s : series) {
            LatencyMetrics.add(s, names, provider, nowNanos, batch);
        }
        for (WindowTotals.Snapshot s : series) {
            TokenMetrics.add(s, names, provider, nowNanos, batch);
            RequestMetrics.add(s, provider, nowNanos, batch);
        }
        return batch.build(resource);
    }
}

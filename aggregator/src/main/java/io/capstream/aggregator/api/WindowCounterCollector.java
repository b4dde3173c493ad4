package io.capstream.aggregator.api;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus counters over the windows this process closed ({@link WindowTotals}), per target, model and
 * context_bucket: {@code capstream_requests_total} by {@code outcome} (completed, failed, cancelled) and, for failed
 * requests, {@code error_type}; {@code capstream_input_tokens_total} and {@code capstream_output_tokens_total} (tokens
 * of completed requests). Completed and cancelled are always present (0 included), failed once per error type seen.
 * Thread-safe (reads a snapshot per scrape).
 */
final class WindowCounterCollector implements MultiCollector {
    static final String REQUESTS = "capstream_requests";
    static final String INPUT_TOKENS = "capstream_input_tokens";
    static final String OUTPUT_TOKENS = "capstream_output_tokens";
    private final WindowTotals totals;

    /**
     * @param totals the totals to expose; not null
     */
    WindowCounterCollector(WindowTotals totals) {
        this.totals = totals;
    }

    @Override
    public MetricSnapshots collect() {
        List<WindowTotals.Snapshot> snaps = totals.snapshot();
        if (snaps.isEmpty()) {
            return MetricSnapshots.of();
        }
        List<CounterDataPointSnapshot> requests = new ArrayList<>();
        List<CounterDataPointSnapshot> input = new ArrayList<>();
        List<CounterDataPointSnapshot> output = new ArrayList<>();
        for (WindowTotals.Snapshot s : snaps) {
            Labels labels = WindowSeriesLabels.of(s.key());
            long created = s.startEpochMs();
            requests.add(point(s.completed(), labels.add("outcome", "completed"), created));
            requests.add(point(s.cancelled(), labels.add("outcome", "cancelled"), created));
            s.failuresByType().forEach((type, n) -> requests.add(point(n,
                    labels.add("outcome", "failed").add("error_type", type), created)));
            input.add(point(s.inputTokens(), labels, created));
            output.add(point(s.outputTokens(), labels, created));
        }
        List<MetricSnapshot> out = List.of(
                new CounterSnapshot(new MetricMetadata(REQUESTS, "Requests that ended in the windows this process "
                        + "closed, by outcome (completed, failed, cancelled) and, for failed ones, error_type"), requests),
                new CounterSnapshot(new MetricMetadata(INPUT_TOKENS, "Prompt (input) tokens of the completed requests "
                        + "in the windows this process closed"), input),
                new CounterSnapshot(new MetricMetadata(OUTPUT_TOKENS, "Output tokens of the completed requests in the "
                        + "windows this process closed"), output));
        return new MetricSnapshots(out);
    }

    private static CounterDataPointSnapshot point(long value, Labels labels, long createdMs) {
        return new CounterDataPointSnapshot(value, labels, null, createdMs);
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(REQUESTS, INPUT_TOKENS, OUTPUT_TOKENS);
    }
}

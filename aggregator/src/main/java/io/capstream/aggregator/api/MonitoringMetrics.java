package io.capstream.aggregator.api;

import io.capstream.aggregator.window.LateRequestListener;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.aggregator.slo.Slo;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Prometheus metrics of the aggregator. Two forms of the latencies, each its own families:
 * <ul>
 *   <li>cumulative over the windows this process closed ({@link #totals()}, {@link WindowTotals}): classic histograms
 *       {@code capstream_<m>_seconds} for every {@link io.capstream.aggregator.window.LatencyMeasure} (ttft, ttfo, e2e,
 *       inter_chunk, request_latency; GenAI bucket bounds; {@link WindowHistogramCollector}) and the counters
 *       {@code capstream_requests_total} (outcome, error_type), {@code capstream_input_tokens_total} and
 *       {@code capstream_output_tokens_total} ({@link WindowCounterCollector}), all per target, model and
 *       context_bucket: {@code rate()} and {@code histogram_quantile()} aggregate them across series and instances;</li>
 *   <li>the latest closed window's exact percentiles: summaries {@code capstream_window_<q>_seconds} for q in ttft,
 *       ttfo, e2e, itl and {@code capstream_window_<q>_tokens_per_second} for q in decode, prefill, each with a
 *       {@code quantile} label (0.5, 0.95, 0.99; {@link WindowQuantileCollector}).</li>
 * </ul>
 * Also Micrometer gauges of the latest closed window: {@code capstream_window_error_rate},
 * {@code capstream_window_goodput} (only with SLOs), {@code capstream_window_output_throughput_tokens_per_second},
 * {@code capstream_window_requests_last}, {@code capstream_window_end_timestamp_seconds} and
 * {@code capstream_window_probe_success} (blackbox-exporter style: 0 when the window had no completed request or
 * missed an SLO as the SLO alerts judge it, {@link Slo#anyMissedBy}, else 1); the counter
 * {@code capstream_window_late_dropped_total} (requests dropped because their window had already closed, tags target
 * and model; also in each window summary's {@code late_dropped}); the counter {@code capstream_change_points_total}
 * ({@link #changePoint}); and the Kafka Streams client's own metrics
 * ({@link KafkaStreamsMetrics}, HELP text filled in where Kafka has none: {@link KafkaMeterDescriptions}). Every family
 * has a HELP text, and capstream's own names use Prometheus base units, so that {@code promtool check metrics} has
 * nothing to report on them. Thread-safe: summaries arrive on stream threads, scrapes on the HTTP thread.
 */
public final class MonitoringMetrics implements Consumer<WindowSummary>, LateRequestListener, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final WindowQuantileCollector quantiles = new WindowQuantileCollector();
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final WindowTotals totals;
    private final List<Slo> slos;
    private KafkaStreamsMetrics streamsMetrics;

    /** Creates the registry without SLOs (probe success then only asks for a completed request). */
    public MonitoringMetrics() {
        this(List.of(), Clock.systemUTC());
    }

    /**
     * Creates the registry, with the window quantiles, histograms and counters and the Kafka HELP filter.
     *
     * @param slos  the SLOs that {@code capstream_window_probe_success} judges each window by; not null, may be empty
     * @param clock stamps when each {@link WindowTotals} series started; not null
     */
    public MonitoringMetrics(List<Slo> slos, Clock clock) {
        this.slos = List.copyOf(slos);
        this.totals = new WindowTotals(clock);
        registry.config().meterFilter(new KafkaMeterDescriptions());
        registry.getPrometheusRegistry().register(quantiles);
        registry.getPrometheusRegistry().register(new WindowHistogramCollector(totals));
        registry.getPrometheusRegistry().register(new WindowCounterCollector(totals));
    }

    /**
     * @return the cumulative totals of the windows this process closed, fed by {@link #accept}; the Prometheus
     *         histograms and counters read them, and so may other exporters (OTLP)
     */
    public WindowTotals totals() {
        return totals;
    }

    /**
     * Binds the Streams client metrics.
     *
     * @param streams the Kafka Streams instance; not null
     */
    public synchronized void bindStreams(KafkaStreams streams) {
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
    }

    /** Records a closed window (sets the gauges of its key, adds it to {@link #totals()}). */
    @Override
    public void accept(WindowSummary s) {
        Tags tags = Tags.of("target", s.getTarget(), "model", s.getModel(), "context_bucket", s.getContextBucket());
        totals.add(s);
        quantiles.record(s);
        set("capstream.window.error.rate", "Failed requests divided by requests in the latest closed window, 0..1",
                tags, s.getErrorRate());
        set("capstream.window.output.throughput.tokens.per.second",
                "Output tokens of the latest closed window divided by the window length, tokens per second", tags,
                s.getOutputThroughputTokS());
        set("capstream.window.requests.last", "Requests (completed and failed) that ended in the latest closed window", tags, s.getRequests());
        set("capstream.window.end.timestamp.seconds", "End of the latest closed window, Unix time in seconds", tags,
                s.getWindowEndMs() / 1000.0);
        set("capstream.window.probe.success", "1 when the latest closed window had a completed request and met every "
                + "SLO it had a value for (as the SLO alerts judge it), else 0; like blackbox-exporter's probe_success",
                tags, probeSuccess(s) ? 1 : 0);
        if (s.getGoodput() != null) {
            set("capstream.window.goodput",
                    "Share of requests in the latest closed window that met every per-request SLO, 0..1 (only with SLOs)", tags,
                    s.getGoodput());
        }
    }

    /**
     * @param s a closed window's summary; not null
     * @return false when the window had no completed request or missed an SLO ({@link Slo#anyMissedBy}), else true
     */
    boolean probeSuccess(WindowSummary s) {
        return s.getCompleted() > 0 && !Slo.anyMissedBy(slos, s);
    }

    /** Counts a request dropped because its window had already closed. */
    @Override
    public void lateDropped(String target, String model, String contextBucket) {
        Counter.builder("capstream.window.late.dropped")
                .description("Requests dropped because their window had already closed (event time more than the "
                        + "grace behind every input partition's); also in the window summary's late_dropped")
                .tags("target", target, "model", model).register(registry).increment();
    }

    /**
     * Counts a change point published on {@code capstream.changes} (issue 32):
     * {@code capstream_change_points_total{target, model, context_bucket, metric, direction}}, for the Grafana
     * dashboard's change marks. Called on a stream thread.
     *
     * @param c the change point; not null
     */
    public void changePoint(ChangePoint c) {
        Counter.builder("capstream.change.points")
                .description("Change points (lasting shifts of a window percentile series) this aggregator instance "
                        + "published on capstream.changes, per series, metric (e.g. ttft_p95_ms) and direction (up/down)")
                .tags("target", c.getTarget(), "model", c.getModel(), "context_bucket", c.getContextBucket(),
                        "metric", c.getMetric(), "direction", c.getDirection())
                .register(registry).increment();
    }

    /**
     * Sets a gauge; {@code description} becomes its Prometheus HELP text (one text per name).
     */
    private void set(String name, String description, Tags tags, double value) {
        String id = name + tags;
        AtomicLong bits = gauges.computeIfAbsent(id, k -> {
            AtomicLong holder = new AtomicLong(Double.doubleToLongBits(Double.NaN));
            Gauge.builder(name, holder, h -> Double.longBitsToDouble(h.get())).description(description).tags(tags)
                    .strongReference(true).register(registry);
            return holder;
        });
        bits.set(Double.doubleToLongBits(value));
    }

    /** @return the Prometheus text exposition of every metric */
    public String scrape() {
        return registry.scrape();
    }

    /** @return the registry (for extra meters) */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public synchronized void close() {
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
    }
}

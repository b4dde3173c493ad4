package io.capstream.aggregator.api;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Prometheus metrics of the aggregator (Micrometer): for the latest closed window per target,
 * model and context bucket, gauges {@code capstream_window_<q>_ms} / {@code _tok_s} with a
 * {@code quantile} tag (0.5, 0.95, 0.99) for q in ttft, ttfo, e2e, itl (ms) and decode, prefill
 * (tokens/s), plus {@code capstream_window_error_rate}, {@code capstream_window_goodput} (only
 * with SLOs), {@code capstream_window_output_throughput_tok_s} and
 * {@code capstream_window_end_timestamp_seconds}; counters {@code capstream_window_requests_total}
 * and {@code capstream_window_failures_total} (tag error_type), summed over the windows this
 * process closed; and the Kafka Streams client's own metrics ({@link KafkaStreamsMetrics}).
 * Thread-safe: summaries arrive on stream threads, scrapes on the HTTP thread.
 */
public final class MonitoringMetrics implements Consumer<WindowSummary>, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private KafkaStreamsMetrics streamsMetrics;

    /**
     * Binds the Streams client metrics.
     *
     * @param streams the Kafka Streams instance; not null
     */
    public synchronized void bindStreams(KafkaStreams streams) {
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
    }

    /** Records a closed window (sets the gauges of its key, adds to the counters). */
    @Override
    public void accept(WindowSummary s) {
        Tags tags = Tags.of("target", s.getTarget(), "model", s.getModel(), "context_bucket", s.getContextBucket());
        quantiles("ttft_ms", tags, s.getTtftMs(),
                "Time to first content token of the latest closed window, milliseconds, at the tagged quantile");
        quantiles("ttfo_ms", tags, s.getTtfoMs(),
                "Time to first output (reasoning or content) of the latest closed window, milliseconds, at the tagged quantile");
        quantiles("e2e_ms", tags, s.getE2eMs(),
                "End-to-end request time of the latest closed window, milliseconds, at the tagged quantile");
        quantiles("itl_ms", tags, s.getItlMs(),
                "Mean inter-token latency per request in the latest closed window, milliseconds, at the tagged quantile");
        quantiles("decode_tok_s", tags, s.getDecodeTokS(),
                "Decode rate per request in the latest closed window, tokens per second, at the tagged quantile");
        quantiles("prefill_tok_s", tags, s.getPrefillTokS(),
                "Effective prefill rate per request in the latest closed window, tokens per second, at the tagged quantile");
        set("capstream.window.error.rate", "Failed requests divided by requests in the latest closed window, 0..1",
                tags, s.getErrorRate());
        set("capstream.window.output.throughput.tok.s",
                "Output tokens of the latest closed window divided by the window length, tokens per second", tags,
                s.getOutputThroughputTokS());
        set("capstream.window.requests.last", "Requests (completed and failed) that ended in the latest closed window", tags, s.getRequests());
        set("capstream.window.end.timestamp.seconds", "End of the latest closed window, Unix time in seconds", tags,
                s.getWindowEndMs() / 1000.0);
        if (s.getGoodput() != null) {
            set("capstream.window.goodput",
                    "Share of requests in the latest closed window that met every per-request SLO, 0..1 (only with SLOs)", tags,
                    s.getGoodput());
        }
        Tags tm = Tags.of("target", s.getTarget(), "model", s.getModel());
        Counter.builder("capstream.window.requests").description("Requests in the windows this process closed").tags(tm)
                .register(registry).increment(s.getRequests());
        s.getFailuresByType().forEach((type, n) -> Counter.builder("capstream.window.failures")
                .description("Failed requests in the windows this process closed, by error type").tags(tm).tag("error_type", type)
                .register(registry).increment(n));
    }

    private void quantiles(String name, Tags tags, Quantiles q, String description) {
        if (q == null) {
            return;
        }
        String metric = "capstream.window." + name.replace('_', '.');
        set(metric, description, tags.and("quantile", "0.5"), q.getP50());
        set(metric, description, tags.and("quantile", "0.95"), q.getP95());
        set(metric, description, tags.and("quantile", "0.99"), q.getP99());
    }

    /**
     * Sets a gauge; {@code description} becomes its Prometheus HELP text (one text per name). The names keep
     * their documented {@code _ms} / {@code _tok_s} suffixes rather than Prometheus base units: renaming
     * them to {@code _seconds} would break existing dashboards and alerts.
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

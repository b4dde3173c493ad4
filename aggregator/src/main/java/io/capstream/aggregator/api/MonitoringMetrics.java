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
        quantiles("ttft_ms", tags, s.getTtftMs());
        quantiles("ttfo_ms", tags, s.getTtfoMs());
        quantiles("e2e_ms", tags, s.getE2eMs());
        quantiles("itl_ms", tags, s.getItlMs());
        quantiles("decode_tok_s", tags, s.getDecodeTokS());
        quantiles("prefill_tok_s", tags, s.getPrefillTokS());
        set("capstream.window.error.rate", tags, s.getErrorRate());
        set("capstream.window.output.throughput.tok.s", tags, s.getOutputThroughputTokS());
        set("capstream.window.requests.last", tags, s.getRequests());
        set("capstream.window.end.timestamp.seconds", tags, s.getWindowEndMs() / 1000.0);
        if (s.getGoodput() != null) {
            set("capstream.window.goodput", tags, s.getGoodput());
        }
        Tags tm = Tags.of("target", s.getTarget(), "model", s.getModel());
        Counter.builder("capstream.window.requests").description("Requests in closed windows").tags(tm)
                .register(registry).increment(s.getRequests());
        s.getFailuresByType().forEach((type, n) -> Counter.builder("capstream.window.failures")
                .description("Failed requests in closed windows").tags(tm).tag("error_type", type)
                .register(registry).increment(n));
    }

    private void quantiles(String name, Tags tags, Quantiles q) {
        if (q == null) {
            return;
        }
        String metric = "capstream.window." + name.replace('_', '.');
        set(metric, tags.and("quantile", "0.5"), q.getP50());
        set(metric, tags.and("quantile", "0.95"), q.getP95());
        set(metric, tags.and("quantile", "0.99"), q.getP99());
    }

    private void set(String name, Tags tags, double value) {
        String id = name + tags;
        AtomicLong bits = gauges.computeIfAbsent(id, k -> {
            AtomicLong holder = new AtomicLong(Double.doubleToLongBits(Double.NaN));
            Gauge.builder(name, holder, h -> Double.longBitsToDouble(h.get())).tags(tags).strongReference(true)
                    .register(registry);
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

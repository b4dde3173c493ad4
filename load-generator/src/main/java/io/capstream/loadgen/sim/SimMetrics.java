package io.capstream.loadgen.sim;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * The simulated engine's own metrics, served at {@code GET /metrics} in the Prometheus text format as
 * engines do (llama-server {@code --metrics}, vLLM): requests running and waiting now, and counters of
 * requests, completed requests, requests whose client went away before their end, and generated tokens, read live from {@link SimStats} through the Prometheus
 * Java client's callback metrics and text writer. Thread-safe.
 */
final class SimMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    SimMetrics(SimStats stats) {
        registry.register(GaugeWithCallback.builder().name("capstream_sim:requests_running")
                .help("Requests being decoded now").callback(cb -> cb.call(stats.active())).build());
        registry.register(GaugeWithCallback.builder().name("capstream_sim:requests_waiting")
                .help("Requests queued for a batch slot now").callback(cb -> cb.call(stats.queued())).build());
        registry.register(CounterWithCallback.builder().name("capstream_sim:requests")
                .help("Chat completion requests received").callback(cb -> cb.call(stats.requests())).build());
        registry.register(CounterWithCallback.builder().name("capstream_sim:requests_completed")
                .help("Requests streamed to their end").callback(cb -> cb.call(stats.completed())).build());
        registry.register(CounterWithCallback.builder().name("capstream_sim:requests_disconnected")
                .help("Requests whose client closed the connection before their end (cancelled or aborted streams);"
                        + " their decoding stopped").callback(cb -> cb.call(stats.disconnected())).build());
        registry.register(CounterWithCallback.builder().name("capstream_sim:generation_tokens")
                .help("Output tokens streamed").callback(cb -> cb.call(stats.tokens())).build());
    }

    /** @return the content type of {@link #scrape()} */
    String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    /** @return the current values in the Prometheus text format 0.0.4 */
    byte[] scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            writer.write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}

package io.capstream.aggregator.api;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.function.Function;

/**
 * The per-request distributions of a {@link WindowSummary} that {@code /metrics} exposes as Prometheus
 * summaries (p50, p95 and p99 of the latest closed window), with their Prometheus names in base units:
 * latencies in seconds (the summary holds milliseconds), rates in tokens per second.
 */
enum WindowQuantile {
    TTFT("capstream_window_ttft_seconds", Unit.SECONDS, 1e-3, WindowSummary::getTtftMs,
            "Time to first content token of the latest closed window, seconds, at the labelled quantile"),
    TTFO("capstream_window_ttfo_seconds", Unit.SECONDS, 1e-3, WindowSummary::getTtfoMs,
            "Time to first output (reasoning or content) of the latest closed window, seconds, at the labelled quantile"),
    E2E("capstream_window_e2e_seconds", Unit.SECONDS, 1e-3, WindowSummary::getE2eMs,
            "End-to-end request time of the latest closed window, seconds, at the labelled quantile"),
    ITL("capstream_window_itl_seconds", Unit.SECONDS, 1e-3, WindowSummary::getItlMs,
            "Mean inter-token latency per request in the latest closed window, seconds, at the labelled quantile"),
    DECODE("capstream_window_decode_tokens_per_second", null, 1, WindowSummary::getDecodeTokS,
            "Decode rate per request in the latest closed window, tokens per second, at the labelled quantile"),
    PREFILL("capstream_window_prefill_tokens_per_second", null, 1, WindowSummary::getPrefillTokS,
            "Effective prefill rate per request in the latest closed window, tokens per second, at the labelled quantile");

    /** Prometheus family name. */
    final String prometheusName;
    /** Base unit, or null (tokens per second has none in Prometheus). */
    final Unit unit;
    /** Factor from the summary's unit to the exposed one. */
    final double scale;
    /** HELP text. */
    final String help;
    private final Function<WindowSummary, Quantiles> source;

    WindowQuantile(String prometheusName, Unit unit, double scale, Function<WindowSummary, Quantiles> source, String help) {
        this.prometheusName = prometheusName;
        this.unit = unit;
        this.scale = scale;
        this.source = source;
        this.help = help;
    }

    /** @return the summary's quantiles of this quantity, or null when the window has none */
    Quantiles of(WindowSummary s) {
        return source.apply(s);
    }
}

package io.capstream.aggregator.window;

import java.util.List;

/**
 * The latencies a window counts into fixed buckets (issue 31) and the names each is exported under: the key in
 * {@code WindowSummary.histograms} and the HTTP API, the Prometheus histogram family, and the OpenTelemetry GenAI
 * client metric it matches, current ({@code gen_ai.client.inference.*}, open-telemetry/semantic-conventions-genai)
 * and v1.41 ({@code gen_ai.client.operation.*}). This is the one place that maps them; exporters read it.
 *
 * <p>Every measure uses the GenAI conventions' recommended boundaries for client durations, {@link #BOUNDS_S}
 * (seconds). What each measures: capstream's TTFT is the time to the first <em>visible content</em> token (spec §4),
 * so it has no GenAI name (AIPerf's and GuideLLM's TTFT count reasoning tokens: that is capstream's time to first
 * output, TTFO, which is the GenAI time to first chunk, counted from the first chunk that carries output).
 */
public enum LatencyMeasure {
    /** Time to first content token (spec §4 ttft), seconds; no GenAI name. */
    TTFT("ttft", "capstream_ttft_seconds", "capstream.client.time_to_first_content", null,
            "Time from sending a request to its first visible content token (reasoning excluded)"),
    /** Time to first output, reasoning or content (spec §4 ttfo), seconds. */
    TTFO("ttfo", "capstream_ttfo_seconds", "gen_ai.client.inference.time_to_first_chunk",
            "gen_ai.client.operation.time_to_first_chunk",
            "Time from sending a request to its first output chunk (reasoning or content)"),
    /** End to end of a streamed request (spec §4 e2e), seconds. */
    E2E("e2e", "capstream_e2e_seconds", "gen_ai.client.inference.duration", "gen_ai.client.operation.duration",
            "Time from sending a streamed request to its last byte"),
    /**
     * Gap between consecutive output chunks of a request (every gap of {@code output_chunk_gaps_us}, not a
     * per-request mean), seconds.
     */
    INTER_CHUNK("inter_chunk", "capstream_inter_chunk_seconds", "gen_ai.client.inference.time_per_output_chunk",
            "gen_ai.client.operation.time_per_output_chunk",
            "Time between consecutive output chunks of a streamed response, one value per gap"),
    /** Request latency of a request that is not streamed (embeddings, rerank; issue 30), seconds. */
    REQUEST_LATENCY("request_latency", "capstream_request_latency_seconds", "gen_ai.client.inference.duration",
            "gen_ai.client.operation.duration",
            "Time from sending a request that is not streamed (embeddings, rerank) to its last byte");

    /**
     * Upper bounds of the finite buckets, seconds: the GenAI conventions' recommended boundaries for
     * {@code gen_ai.client.inference.duration}, {@code .time_to_first_chunk} and {@code .time_per_output_chunk}.
     */
    public static final List<Double> BOUNDS_S = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12,
            10.24, 20.48, 40.96, 81.92);

    private final String id;
    private final String prometheusName;
    private final String otelName;
    private final String otelLegacyName;
    private final String description;

    LatencyMeasure(String id, String prometheusName, String otelName, String otelLegacyName, String description) {
        this.id = id;
        this.prometheusName = prometheusName;
        this.otelName = otelName;
        this.otelLegacyName = otelLegacyName;
        this.description = description;
    }

    /** @return the key in {@code WindowSummary.histograms}, e.g. {@code ttft} */
    public String id() {
        return id;
    }

    /** @return the Prometheus histogram family, base unit seconds, e.g. {@code capstream_ttft_seconds} */
    public String prometheusName() {
        return prometheusName;
    }

    /**
     * @return the current OpenTelemetry name: a {@code gen_ai.client.inference.*} name, or a {@code capstream.client.*}
     *         name when GenAI has none (TTFT)
     */
    public String otelName() {
        return otelName;
    }

    /** @return the GenAI v1.41 name ({@code gen_ai.client.operation.*}), or null when there is none (TTFT) */
    public String otelLegacyName() {
        return otelLegacyName;
    }

    /** @return one line for HELP texts and OpenTelemetry descriptions */
    public String description() {
        return description;
    }

    /**
     * @param id a key of {@code WindowSummary.histograms}
     * @return its measure, or null for an unknown key (a newer writer's)
     */
    public static LatencyMeasure byId(String id) {
        for (LatencyMeasure m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        return null;
    }
}

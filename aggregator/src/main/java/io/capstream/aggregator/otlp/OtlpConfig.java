package io.capstream.aggregator.otlp;

import java.util.Objects;

/**
 * Settings of the OpenTelemetry metrics export of {@code aggregate}, resolved once from its options. Everything else
 * (headers, timeout, compression, export interval, resource) comes from the standard {@code OTEL_*} environment
 * variables and {@code otel.*} system properties, read by the SDK's autoconfigure module ({@link OtlpExport}).
 *
 * @param metricsEndpoint the OTLP/HTTP metrics URL the export posts to (e.g.
 *                        {@code http://127.0.0.1:4318/v1/metrics}; see {@link #metricsUrl(String)}), or null to take
 *                        it from {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT} / {@code OTEL_EXPORTER_OTLP_ENDPOINT}
 * @param names           which GenAI names to export; not null
 * @param providerName    the {@code gen_ai.provider.name} attribute, e.g. {@code openai} or {@code vllm}; not blank
 */
public record OtlpConfig(String metricsEndpoint, OtlpNames names, String providerName) {
    /** The OTLP/HTTP path of metrics, appended to a base endpoint. */
    public static final String METRICS_PATH = "/v1/metrics";
    /**
     * The default {@code gen_ai.provider.name}: capstream speaks the OpenAI API, and OpenAI client instrumentations
     * report {@code openai} for every OpenAI-compatible server.
     */
    public static final String DEFAULT_PROVIDER = "openai";

    /** Validates. */
    public OtlpConfig {
        Objects.requireNonNull(names, "names");
        if (providerName == null || providerName.isBlank()) {
            throw new IllegalArgumentException("providerName must not be blank");
        }
    }

    /**
     * The metrics URL of an endpoint given the way {@code OTEL_EXPORTER_OTLP_ENDPOINT} is: a base URL
     * ({@code http://collector:4318}, {@code https://otlp.example.com/otlp}) gets {@value #METRICS_PATH} appended; a URL
     * that already ends with it (or with it and a slash) is kept, without the slash.
     *
     * @param endpoint an http(s) URL; not null
     * @return the URL to post metrics to
     */
    public static String metricsUrl(String endpoint) {
        String e = endpoint.strip();
        while (e.endsWith("/")) {
            e = e.substring(0, e.length() - 1);
        }
        return e.endsWith(METRICS_PATH) ? e : e + METRICS_PATH;
    }
}

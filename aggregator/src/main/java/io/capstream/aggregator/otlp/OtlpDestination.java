package io.capstream.aggregator.otlp;

import io.capstream.schemas.text.DurationLabel;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where and how often the export posts, as the SDK resolved it from the options and the {@code OTEL_*} variables:
 * for the banner line. Header values (API keys) never leave this class: only their names are kept.
 *
 * @param metricsUrl  the URL metrics are posted to, user-info masked
 * @param interval    the periodic export interval ({@code OTEL_METRIC_EXPORT_INTERVAL})
 * @param headerNames names of the headers sent with every post ({@code OTEL_EXPORTER_OTLP_[METRICS_]HEADERS})
 */
public record OtlpDestination(String metricsUrl, Duration interval, java.util.Set<String> headerNames) {
    /** The SDK's default OTLP/HTTP metrics URL. */
    static final String DEFAULT_URL = "http://localhost:4318" + OtlpConfig.METRICS_PATH;
    /** The SDK's default export interval. */
    static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);

    /**
     * @param props the SDK's resolved properties; not null
     * @return where the export goes
     */
    static OtlpDestination of(ConfigProperties props) {
        String url = props.getString("otel.exporter.otlp.metrics.endpoint");
        if (url == null) {
            String base = props.getString("otel.exporter.otlp.endpoint");
            url = base == null ? DEFAULT_URL : OtlpConfig.metricsUrl(base);
        }
        Map<String, String> headers = new TreeMap<>(props.getMap("otel.exporter.otlp.headers"));
        headers.putAll(props.getMap("otel.exporter.otlp.metrics.headers"));
        return new OtlpDestination(maskUserInfo(url), props.getDuration("otel.metric.export.interval", DEFAULT_INTERVAL),
                headers.keySet());
    }

    /**
     * @return e.g. {@code http://127.0.0.1:4318/v1/metrics every 1m, headers api-key=****}; the interval as the
     *         options write it ({@link DurationLabel}: {@code 500ms}, {@code 90s}, {@code 5m})
     */
    public String describe() {
        String h = headerNames.isEmpty() ? "" : ", headers " + headerNames.stream().map(n -> n + "=****")
                .collect(Collectors.joining(", "));
        return metricsUrl + " every " + DurationLabel.of(interval) + h;
    }

    private static String maskUserInfo(String url) {
        String stripped = GenAiAttributes.withoutUserInfo(url);
        if (stripped.equals(url)) {
            return url;
        }
        int scheme = url.indexOf("://");
        int from = scheme < 0 ? 0 : scheme + 3;
        return stripped.substring(0, from) + "****@" + stripped.substring(from);
    }
}

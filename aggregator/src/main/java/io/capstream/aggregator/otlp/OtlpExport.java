package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.View;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The OpenTelemetry metrics export of {@code aggregate} (issue 31): the OpenTelemetry SDK, configured by its
 * autoconfigure module from the standard {@code OTEL_*} environment variables and {@code otel.*} system properties
 * (endpoint, headers, timeout, compression, export interval, resource), with a {@link WindowMetricProducer} on its meter
 * provider and the OTLP/HTTP (protobuf) exporter, sent with the JDK's HTTP client. Traces and logs are off. The
 * options override the variables: {@link OtlpConfig#metricsEndpoint()} becomes
 * {@code otel.exporter.otlp.metrics.endpoint}. Besides the periodic export ({@code OTEL_METRIC_EXPORT_INTERVAL},
 * default 60 s) the totals are sent within about a second of a window closing ({@link NewWindowFlusher}), and once
 * more on {@link #close()}. Temporality is cumulative.
 */
public final class OtlpExport implements AutoCloseable {
    /** The only protocol capstream sends (the JDK sender has no gRPC). */
    static final String HTTP_PROTOBUF = "http/protobuf";
    /** Default of {@code OTEL_SERVICE_NAME}. */
    static final String SERVICE_NAME = "capstream-aggregate";
    private static final Duration CHECK_PERIOD = Duration.ofSeconds(1);
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(30);

    private final OpenTelemetrySdk sdk;
    private final OtlpDestination destination;
    private final NewWindowFlusher flusher;

    private OtlpExport(OpenTelemetrySdk sdk, OtlpDestination destination,
                       Supplier<? extends Collection<WindowTotals.Snapshot>> source, Duration checkPeriod) {
        this.sdk = sdk;
        this.destination = destination;
        this.flusher = new NewWindowFlusher(source, () -> forceFlush(FLUSH_TIMEOUT), checkPeriod);
    }

    /**
     * Starts the export.
     *
     * @param config the options; not null
     * @param source the series, e.g. {@code totals::snapshot}; not null
     * @param clock  stamps the points; not null
     * @return the running export
     * @throws OtlpConfigException when the SDK settings are unusable (e.g. {@code OTEL_EXPORTER_OTLP_PROTOCOL=grpc}, an
     *                             unparsable {@code OTEL_EXPORTER_OTLP_TIMEOUT}); one line, no header values
     */
    public static OtlpExport start(OtlpConfig config, Supplier<? extends Collection<WindowTotals.Snapshot>> source,
                                   Clock clock) {
        return start(config, source, clock, CHECK_PERIOD);
    }

    static OtlpExport start(OtlpConfig config, Supplier<? extends Collection<WindowTotals.Snapshot>> source, Clock clock,
                            Duration checkPeriod) {
        Objects.requireNonNull(config, "config");
        SdkLogBridge.install();
        WindowMetricProducer producer = new WindowMetricProducer(source, config.names(), config.providerName(), clock);
        AtomicReference<ConfigProperties> resolved = new AtomicReference<>();
        OpenTelemetrySdk sdk;
        try {
            sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(OtlpExport::defaults)
                    .addPropertiesCustomizer(props -> overrides(config, props))
                    .addMeterProviderCustomizer((builder, props) -> {
                        resolved.set(props);
                        // the exporter's own counters (otlp.exporter.seen / .exported, otel.sdk.* in newer SDKs) are
                        // dropped: only capstream's documented names go out
                        for (String selfTelemetry : List.of("otlp.exporter.*", "otel.sdk.*")) {
                            builder.registerView(InstrumentSelector.builder().setName(selfTelemetry).build(),
                                    View.builder().setAggregation(Aggregation.drop()).build());
                        }
                        return builder.registerMetricProducer(producer);
                    })
                    .disableShutdownHook()
                    .build().getOpenTelemetrySdk();
        } catch (OtlpConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new OtlpConfigException("OpenTelemetry settings: " + firstLine(e.getMessage()), e);
        }
        OtlpDestination destination = resolved.get() == null ? null : OtlpDestination.of(resolved.get());
        SdkLogBridge.target(destination == null ? null : destination.metricsUrl());
        if (resolved.get() != null) {
            // header values (API keys) never appear in what the SDK's records become
            SdkLogBridge.addSecrets(resolved.get().getMap("otel.exporter.otlp.headers").values());
            SdkLogBridge.addSecrets(resolved.get().getMap("otel.exporter.otlp.metrics.headers").values());
        }
        return new OtlpExport(sdk, destination, source, checkPeriod);
    }

    /** Lowest precedence: the environment and system properties override these. */
    private static Map<String, String> defaults() {
        return Map.of("otel.exporter.otlp.protocol", HTTP_PROTOBUF, "otel.service.name", SERVICE_NAME);
    }

    /** Highest precedence: what the options say, and what capstream exports at all. */
    private static Map<String, String> overrides(OtlpConfig config, ConfigProperties props) {
        String protocol = props.getString("otel.exporter.otlp.metrics.protocol",
                props.getString("otel.exporter.otlp.protocol", HTTP_PROTOBUF));
        if (!HTTP_PROTOBUF.equals(protocol)) {
            throw new OtlpConfigException("OTEL_EXPORTER_OTLP_PROTOCOL / OTEL_EXPORTER_OTLP_METRICS_PROTOCOL is '"
                    + protocol + "': capstream exports OTLP/HTTP only (" + HTTP_PROTOBUF + ")", null);
        }
        Map<String, String> o = new HashMap<>();
        o.put("otel.metrics.exporter", "otlp");
        o.put("otel.traces.exporter", "none");
        o.put("otel.logs.exporter", "none");
        if (config.metricsEndpoint() != null) {
            o.put("otel.exporter.otlp.metrics.endpoint", config.metricsEndpoint());
        }
        return o;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "invalid";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * @return where the export posts and how often, header values masked; null when the SDK is disabled
     *         ({@code OTEL_SDK_DISABLED=true})
     */
    public OtlpDestination destination() {
        return destination;
    }

    /**
     * Collects and exports now, waiting for the post to finish.
     *
     * @param timeout how long to wait; not null
     * @return whether the export succeeded within the timeout
     */
    public boolean forceFlush(Duration timeout) {
        return sdk.getSdkMeterProvider().forceFlush().join(timeout.toMillis(), TimeUnit.MILLISECONDS).isSuccess();
    }

    /** Exports the totals one last time, then stops the SDK (waits up to 10 s for the post). */
    @Override
    public void close() {
        flusher.close();
        sdk.close();
    }
}

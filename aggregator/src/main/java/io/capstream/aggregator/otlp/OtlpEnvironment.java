package io.capstream.aggregator.otlp;

import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks the {@code OTEL_*} variables the export reads before anything starts, so that a malformed one is a usage error
 * naming the variable and the value expected instead of the SDK's bare {@code Expected number, found: } once Kafka has
 * been reached. The grammar is the OpenTelemetry SDK autoconfigure's ({@code ConfigProperties}): a duration is a whole
 * number with an optional unit ({@code ms} when none; {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m},
 * {@code h}, {@code d}), a map is comma-separated {@code key=value} pairs. Nothing is checked under
 * {@code OTEL_SDK_DISABLED=true} (the SDK reads nothing then). Header values are never repeated: they hold API keys.
 */
public final class OtlpEnvironment {
    private static final Pattern DURATION = Pattern.compile("^\\s*\\d+\\s*(ns|us|ms|s|m|h|d)?\\s*$");
    private static final String DURATION_EXPECTED = "a whole number of milliseconds, or one with a unit"
            + " (ns, us, ms, s, m, h, d), e.g. 10000, 10s, 500ms";
    private static final List<String> TIMEOUTS = List.of("OTEL_EXPORTER_OTLP_TIMEOUT",
            "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT");
    private static final List<String> HEADERS = List.of("OTEL_EXPORTER_OTLP_HEADERS",
            "OTEL_EXPORTER_OTLP_METRICS_HEADERS");
    private static final List<String> COMPRESSIONS = List.of("OTEL_EXPORTER_OTLP_COMPRESSION",
            "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION");
    private static final List<String> PROTOCOLS = List.of("OTEL_EXPORTER_OTLP_PROTOCOL",
            "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL");
    private static final List<String> ENDPOINTS = List.of("OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    private static final String INTERVAL = "OTEL_METRIC_EXPORT_INTERVAL";

    private OtlpEnvironment() {
    }

    /**
     * @param env          the process environment; not null
     * @param endpointFlag whether {@code --otlp-endpoint} was given (it overrides the endpoint variables, which are
     *                     then not read)
     * @return one line per malformed variable ({@code OTEL_EXPORTER_OTLP_TIMEOUT is 'abc': expected ...}), in the
     *         order above; empty when all are usable or unset (blank counts as unset, as for the SDK)
     */
    public static List<String> problems(Map<String, String> env, boolean endpointFlag) {
        List<String> out = new ArrayList<>();
        if ("true".equalsIgnoreCase(strip(env.get("OTEL_SDK_DISABLED")))) {
            return out;
        }
        for (String name : TIMEOUTS) {
            String v = strip(env.get(name));
            if (v != null && !DURATION.matcher(v).matches()) {
                out.add(name + " is '" + v + "': expected " + DURATION_EXPECTED);
            }
        }
        String interval = strip(env.get(INTERVAL));
        if (interval != null && (!DURATION.matcher(interval).matches() || interval.matches("^0+\\D*$"))) {
            out.add(INTERVAL + " is '" + interval + "': expected more than 0, " + DURATION_EXPECTED);
        }
        for (String name : HEADERS) {
            String v = strip(env.get(name));
            if (v != null && !isMap(v)) {
                out.add(name + ": expected key=value pairs separated by commas, e.g. api-key=KEY,x-tenant=a"
                        + " (the value is not repeated here)");
            }
        }
        for (String name : COMPRESSIONS) {
            String v = strip(env.get(name));
            if (v != null && !List.of("gzip", "none").contains(v.toLowerCase(Locale.ROOT))) {
                out.add(name + " is '" + v + "': expected gzip or none");
            }
        }
        for (String name : PROTOCOLS) {
            String v = strip(env.get(name));
            if (v != null && !OtlpExport.HTTP_PROTOBUF.equals(v)) {
                out.add(name + " is '" + v + "': expected " + OtlpExport.HTTP_PROTOBUF
                        + " (capstream exports OTLP/HTTP only)");
            }
        }
        for (String name : endpointFlag ? List.<String>of() : ENDPOINTS) {
            String v = strip(env.get(name));
            String problem = v == null ? null : HttpUrls.problem(v);
            if (problem != null) {
                out.add(name + " is '" + Redaction.urls(v) + "': expected an http(s) URL, e.g. http://127.0.0.1:4318;"
                        + " it " + problem);
            }
        }
        return out;
    }

    /** As the SDK reads a map: entries split at commas, blank ones skipped, each with a key before an {@code =}. */
    private static boolean isMap(String v) {
        for (String entry : v.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0 || entry.substring(0, eq).isBlank()) {
                return false;
            }
        }
        return true;
    }

    private static String strip(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }
}

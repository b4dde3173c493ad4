package io.capstream.cli.options;

import io.capstream.aggregator.otlp.OtlpConfig;
import io.capstream.aggregator.otlp.OtlpEnvironment;
import io.capstream.aggregator.otlp.OtlpNames;
import io.capstream.schemas.text.HttpUrls;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The OpenTelemetry export options of {@code aggregate} (picocli mixin): {@code --otlp-endpoint},
 * {@code --otlp-names} and {@code --engine}, resolved once into an {@link OtlpConfig}. Everything else about the
 * export (headers, timeout, interval, resource) is the OpenTelemetry SDK's, from the standard {@code OTEL_*} variables.
 */
public final class OtlpOptions {
    /** The variables that turn the export on without {@code --otlp-endpoint} (as the SDK reads them). */
    static final List<String> ENDPOINT_ENV = List.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT");

    @Option(names = "--otlp-endpoint", paramLabel = "URL",
            description = "Export the closed windows' measurements as OpenTelemetry metrics over OTLP/HTTP (protobuf),"
                    + " cumulative, to URL: a base such as http://127.0.0.1:4318 (/v1/metrics is appended) or the full"
                    + " metrics URL. Without it, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT turn"
                    + " the export on. Headers (e.g. API keys), timeout and export interval come from the standard"
                    + " OTEL_EXPORTER_OTLP_* and OTEL_METRIC_EXPORT_INTERVAL variables; a window is also sent within a"
                    + " second of closing. No credentials in the URL: put them in OTEL_EXPORTER_OTLP_HEADERS.")
    String endpoint;

    @Option(names = "--otlp-names", paramLabel = "current|legacy|both",
            description = "Which OpenTelemetry GenAI metric names to export: current (gen_ai.client.inference.*),"
                    + " legacy (v1.41 gen_ai.client.operation.* and gen_ai.client.token.usage) or both, during the"
                    + " transition. Default: ${DEFAULT-VALUE}.")
    String names = OtlpNames.BOTH.toString();

    @Option(names = "--engine", paramLabel = "NAME",
            description = "gen_ai.provider.name of the exported metrics, e.g. vllm, sglang. Default: ${DEFAULT-VALUE}"
                    + " (the API capstream speaks, as OpenAI client instrumentations report it).")
    String engine = OtlpConfig.DEFAULT_PROVIDER;

    /**
     * @param env      the process environment (where the {@code OTEL_*} variables are)
     * @param problems where usage errors go, one line each, without command prefix
     * @return the export settings, or null when the export is off (no {@code --otlp-endpoint} and no endpoint
     *         variable) or a problem was added (a malformed {@code OTEL_*} variable is one: {@link OtlpEnvironment})
     */
    public OtlpConfig resolve(Map<String, String> env, List<String> problems) {
        int before = problems.size();
        OtlpNames parsedNames = null;
        try {
            parsedNames = OtlpNames.parse(names);
        } catch (IllegalArgumentException e) {
            problems.add("--otlp-names " + e.getMessage());
        }
        if (engine == null || engine.isBlank()) {
            problems.add("--engine must not be empty");
        }
        String metricsUrl = null;
        if (endpoint != null) {
            String problem = HttpUrls.problem(endpoint);
            if (problem != null) {
                problems.add("--otlp-endpoint " + problem);
            } else if (HttpUrls.userInfo(endpoint) != null) {
                problems.add("--otlp-endpoint must not contain user:password@ (put credentials in"
                        + " OTEL_EXPORTER_OTLP_HEADERS)");
            } else {
                metricsUrl = OtlpConfig.metricsUrl(endpoint);
            }
        }
        boolean fromEnv = ENDPOINT_ENV.stream().anyMatch(k -> env.get(k) != null && !env.get(k).isBlank());
        if (endpoint != null || fromEnv) {
            problems.addAll(OtlpEnvironment.problems(env, endpoint != null));
        }
        if (problems.size() > before || (endpoint == null && !fromEnv)) {
            return null;
        }
        return new OtlpConfig(metricsUrl, parsedNames, engine.strip());
    }
}

package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link OtlpEnvironment}: the SDK's grammar, one line per malformed variable, header values never repeated. */
class OtlpEnvironmentTest {
    @Test
    void usableAndUnsetVariablesAreNoProblem() {
        Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_TIMEOUT", "10s", "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT",
                "10000", "OTEL_METRIC_EXPORT_INTERVAL", " 500 ms", "OTEL_EXPORTER_OTLP_HEADERS", "api-key=k1,,x=",
                "OTEL_EXPORTER_OTLP_COMPRESSION", "GZIP", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "https://otlp.example/otlp", "OTEL_EXPORTER_OTLP_METRICS_HEADERS", " ");
        assertThat(OtlpEnvironment.problems(env, false)).as("problems of %s", env).isEmpty();
        assertThat(OtlpEnvironment.problems(Map.of(), false)).as("problems with none set").isEmpty();
    }

    @Test
    void eachMalformedVariableIsOneLineNamingItAndTheValueExpected() {
        Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "1.5s",
                "OTEL_METRIC_EXPORT_INTERVAL", "0s", "OTEL_EXPORTER_OTLP_HEADERS", "api-key:s3cr3tKey",
                "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION", "zstd", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "ftp://u:pw12345@c:21");
        assertThat(OtlpEnvironment.problems(env, false)).as("problems of %s", env).containsExactly(
                "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT is '1.5s': expected a whole number of milliseconds, or one with a"
                        + " unit (ns, us, ms, s, m, h, d), e.g. 10000, 10s, 500ms",
                "OTEL_METRIC_EXPORT_INTERVAL is '0s': expected more than 0, a whole number of milliseconds, or one"
                        + " with a unit (ns, us, ms, s, m, h, d), e.g. 10000, 10s, 500ms",
                "OTEL_EXPORTER_OTLP_HEADERS: expected key=value pairs separated by commas, e.g. api-key=KEY,x-tenant=a"
                        + " (the value is not repeated here)",
                "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION is 'zstd': expected gzip or none",
                "OTEL_EXPORTER_OTLP_PROTOCOL is 'grpc': expected http/protobuf (capstream exports OTLP/HTTP only)",
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is 'ftp://***@c:21': expected an http(s) URL, e.g."
                        + " http://127.0.0.1:4318; it must start with http:// or https://");
    }

    @Test
    void theEndpointVariablesAreNotReadUnderTheFlagNorAnythingWhenTheSdkIsDisabled() {
        assertThat(OtlpEnvironment.problems(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "ftp://c"), true))
                .as("endpoint variable under --otlp-endpoint").isEmpty();
        assertThat(OtlpEnvironment.problems(Map.of("OTEL_SDK_DISABLED", "TRUE", "OTEL_EXPORTER_OTLP_TIMEOUT", "abc"),
                false)).as("OTEL_SDK_DISABLED=true").isEmpty();
    }
}

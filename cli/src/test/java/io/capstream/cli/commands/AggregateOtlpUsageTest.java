package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.otlp.OtlpConfig;
import io.capstream.aggregator.otlp.OtlpNames;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.options.OtlpOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code aggregate --otlp-endpoint / --otlp-names / --engine}: help, usage errors (checked before Kafka), resolution. */
class AggregateOtlpUsageTest {
    private static CommandOutput aggregate(String... extra) {
        List<String> args = new ArrayList<>(List.of("aggregate", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "http://127.0.0.1:1"));
        args.addAll(List.of(extra));
        return CommandOutput.run(args.toArray(String[]::new));
    }

    @Test
    void aBadEndpointIsAOneLineUsageError() {
        for (String[] bad : new String[][] {
            {"127.0.0.1:4318", "capstream aggregate: --otlp-endpoint must start with http:// or https://"},
            {"grpc://c:4317", "capstream aggregate: --otlp-endpoint must start with http:// or https://"},
            {"http://c:99999", "capstream aggregate: --otlp-endpoint has port 99999, outside 1..65535"},
            {"https://user:s3cret@otlp.example", "capstream aggregate: --otlp-endpoint must not contain user:password@"
                    + " (put credentials in OTEL_EXPORTER_OTLP_HEADERS)"}}) {
            CommandOutput r = aggregate("--otlp-endpoint", bad[0]);
            assertThat(r.exitCode()).as("exit code for " + bad[0] + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as("error for " + bad[0]).isEqualTo(bad[1]);
        }
    }

    @Test
    void unknownNamesAndAnEmptyEngineAreUsageErrors() {
        CommandOutput r = aggregate("--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-names", "v1.41", "--engine", " ");
        assertThat(r.exitCode()).as("exit code: " + r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as("errors").containsExactly(
                "capstream aggregate: --otlp-names must be current, legacy or both, got 'v1.41'",
                "capstream aggregate: --engine must not be empty");
    }

    @Test
    void helpNamesTheVariablesAndTheChoices() {
        CommandOutput help = CommandOutput.run("aggregate", "--help");
        String text = help.out().replaceAll("\\s+", " ");
        assertThat(text).as("help").contains("--otlp-endpoint=URL", "OTEL_EXPORTER_OTLP_ENDPOINT",
                "--otlp-names=current|legacy|both", "Default: both", "--engine=NAME", "Default: openai");
    }

    private static OtlpConfig resolve(Map<String, String> env, String... args) {
        OtlpOptions options = new OtlpOptions();
        new CommandLine(options).parseArgs(args);
        List<String> problems = new ArrayList<>();
        OtlpConfig config = options.resolve(env, problems);
        assertThat(problems).as("problems").isEmpty();
        return config;
    }

    @Test
    void theExportIsOnWithTheFlagOrAnEndpointVariable() {
        assertThat(resolve(Map.of())).as("neither flag nor variable: off").isNull();
        assertThat(resolve(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "a=b"))).as("headers alone: off").isNull();
        assertThat(resolve(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")))
                .as("base endpoint variable: on, the SDK reads the URL")
                .isEqualTo(new OtlpConfig(null, OtlpNames.BOTH, "openai"));
        assertThat(resolve(Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://c:4318/v1/metrics")))
                .as("metrics endpoint variable: on").isNotNull();
        assertThat(resolve(Map.of(), "--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-names", "CURRENT",
                "--engine", "vllm")).as("flag: the metrics URL")
                .isEqualTo(new OtlpConfig("http://127.0.0.1:4318/v1/metrics", OtlpNames.CURRENT, "vllm"));
    }

    @Test
    void aMalformedOtelVariableIsAOneLineProblemNamingItAndTheValueExpected() {
        OtlpOptions options = new OtlpOptions();
        new CommandLine(options).parseArgs("--otlp-endpoint", "http://127.0.0.1:4318");
        List<String> problems = new ArrayList<>();
        OtlpConfig config = options.resolve(Map.of("OTEL_EXPORTER_OTLP_TIMEOUT", "abc"), problems);
        assertThat(config).as("no export with a malformed variable").isNull();
        assertThat(problems).as("problems (printed before Kafka is reached, exit 2)").containsExactly(
                "OTEL_EXPORTER_OTLP_TIMEOUT is 'abc': expected a whole number of milliseconds, or one with a unit"
                        + " (ns, us, ms, s, m, h, d), e.g. 10000, 10s, 500ms");
        assertThat(resolve(Map.of("OTEL_EXPORTER_OTLP_TIMEOUT", "abc"))).as("export off: the variables are not read")
                .isNull();
    }
}

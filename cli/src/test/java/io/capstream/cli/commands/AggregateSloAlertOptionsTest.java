package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.slo.BurnRateRule;
import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.aggregator.slo.SloTopologyConfig;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.options.SloAlertOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code aggregate --slo-decision/--slo-min-samples/--slo-target/--burn-rate-rule}: parsing, help, usage errors. */
class AggregateSloAlertOptionsTest {
    private static SloTopologyConfig apply(List<String> problems, String... args) {
        SloAlertOptions o = new SloAlertOptions();
        new CommandLine(o).parseArgs(args);
        return o.apply(SloTopologyConfig.defaults(SloParser.parseAll(List.of("ttft_p95_ms<=500")), "mock://x"),
                problems);
    }

    @Test
    void defaultsAreIntervalDecisionsWithoutBurnRate() {
        List<String> problems = new ArrayList<>();
        SloTopologyConfig c = apply(problems);
        assertThat(problems).isEmpty();
        assertThat(c.decision()).isEqualTo(SloDecision.interval());
        assertThat(c.burnRate()).isNull();
        assertThat(SloAlertOptions.banner(c)).isEqualTo("SLO alerts: interval decisions; no burn-rate alerts (--slo-target)");
    }

    @Test
    void pointDecisionsAndTheWorkbookRules() {
        List<String> problems = new ArrayList<>();
        SloTopologyConfig c = apply(problems, "--slo-decision", "point", "--slo-min-samples", "50", "--slo-target", "0.99");
        assertThat(problems).isEmpty();
        assertThat(c.decision()).isEqualTo(SloDecision.point(50));
        assertThat(c.burnRate().rules()).extracting(BurnRateRule::name)
                .containsExactly("page-1h-5m", "page-6h-30m", "ticket-3d-6h");
        assertThat(SloAlertOptions.banner(c)).isEqualTo("SLO alerts: point decisions (windows with at least 50 values);"
                + " burn-rate alerts on a 99% target: page-1h-5m at 14.4x, page-6h-30m at 6x, ticket-3d-6h at 1x");
    }

    @Test
    void rulesReplaceTheDefaults() {
        List<String> problems = new ArrayList<>();
        SloTopologyConfig c = apply(problems, "--slo-target", "0.995", "--burn-rate-rule", "page:10:30m:2m");
        assertThat(problems).isEmpty();
        assertThat(c.burnRate().rules()).containsExactly(
                new BurnRateRule("page", 10, Duration.ofMinutes(30), Duration.ofMinutes(2)));
    }

    @Test
    void badValuesAreOneLineUsageErrors() {
        for (String[] bad : new String[][] {
            {"--slo-decision", "median"},
            {"--slo-decision", "point", "--slo-min-samples", "0"},
            {"--slo-target", "1.5"},
            {"--burn-rate-rule", "page:14.4:1h:5m"},
            {"--slo-target", "0.99", "--burn-rate-rule", "page:14.4:5m:1h"},
            {"--slo-target", "0.99", "--burn-rate-rule", "page:14.4:1h"}}) {
            List<String> args = new ArrayList<>(List.of("aggregate", "--bootstrap-servers", "127.0.0.1:1",
                    "--schema-registry-url", "http://127.0.0.1:1", "--slo", "ttft_p95_ms<=500"));
            args.addAll(List.of(bad));
            CommandOutput r = CommandOutput.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as("exit code for " + List.of(bad) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines().count()).as("one line: " + r.err()).isEqualTo(1);
        }
        CommandOutput r = CommandOutput.run("aggregate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url",
                "http://127.0.0.1:1", "--slo", "ttft_p95_ms<=500", "--slo-decision", "median");
        assertThat(r.err().strip()).isEqualTo(
                "capstream aggregate: --slo-decision: unknown SLO decision 'median': expected interval or point");
        CommandOutput noSlo = CommandOutput.run("aggregate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url",
                "http://127.0.0.1:1", "--slo-target", "0.99");
        assertThat(noSlo.err()).contains("--slo-target needs at least one --slo");
        CommandOutput swapped = CommandOutput.run("aggregate", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "http://127.0.0.1:1", "--slo", "ttft_p95_ms<=500", "--slo-target", "0.99",
                "--burn-rate-rule", "page:14.4:5m:1h");
        assertThat(swapped.err()).as("windows spelled as the option takes them, not PT5M")
                .contains("got long 5m and short 1h").doesNotContain("PT");
    }

    @Test
    void helpDescribesTheOptions() {
        String text = CommandOutput.run("aggregate", "--help").out().replaceAll("\\s+", " ");
        assertThat(text).contains("--slo-decision=interval|point").contains("--slo-min-samples=N")
                .contains("--slo-target=FRACTION").contains("--burn-rate-rule=SEVERITY:FACTOR:LONG:SHORT")
                .contains("page 14.4x over 1h and 5m");
    }
}

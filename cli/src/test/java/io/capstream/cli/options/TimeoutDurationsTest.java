package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.commands.CliRun;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParseResult;

/**
 * Every timeout option takes a duration with a unit as the other time options do ({@code 30s}, {@code 1.5s},
 * {@code 500ms}, {@code 2m}), a bare number still being seconds: a fresh user's {@code run --timeout 30s} was refused
 * with "'30s' is not a double". Out-of-range and malformed values stay one-line usage errors naming the option.
 */
class TimeoutDurationsTest {
    /** Each timeout option with the arguments its command needs to parse. */
    private static final List<List<String>> TIMEOUTS = List.of(
            List.of("run", "--timeout"),
            List.of("run", "--report-timeout"),
            List.of("generate", "--timeout"),
            List.of("sweep", "--timeout"),
            List.of("sweep", "--report-timeout"),
            List.of("rerun", "some-run", "--timeout"),
            List.of("rerun", "some-run", "--report-timeout"),
            List.of("check", "--timeout"),
            List.of("check", "--exchange-timeout"),
            List.of("import", "a.json", "--timeout"),
            List.of("replay", "--all", "--timeout"),
            List.of("up", "--registry-timeout"));

    private static CommandLine root(Map<String, String> env) {
        CommandLine root = CapstreamMain.newCommandLine(new ConfigDefaultProvider(env, new Properties()));
        root.setErr(new PrintWriter(new StringWriter(), true));
        return root;
    }

    /** @return the value the option of {@code args}' command holds after parsing them */
    private static Object parsed(Map<String, String> env, String option, List<String> args) {
        ParseResult r = root(env).parseArgs(args.toArray(String[]::new));
        return r.subcommand().commandSpec().findOption(option).getValue();
    }

    private static Object parsed(List<String> command, String value) {
        List<String> args = new ArrayList<>(command);
        args.add(value);
        return parsed(Map.of(), command.get(command.size() - 1), args);
    }

    @Test
    void everyTimeoutTakesADurationWithAUnitOrBareSeconds() {
        for (List<String> command : TIMEOUTS) {
            String name = String.join(" ", command);
            assertThat(parsed(command, "30s")).as(name + " 30s").isEqualTo(Duration.ofSeconds(30));
            assertThat(parsed(command, "1.5s")).as(name + " 1.5s").isEqualTo(Duration.ofMillis(1500));
            assertThat(parsed(command, "500ms")).as(name + " 500ms").isEqualTo(Duration.ofMillis(500));
            assertThat(parsed(command, "2m")).as(name + " 2m").isEqualTo(Duration.ofMinutes(2));
            assertThat(parsed(command, "45")).as(name + " 45 (bare seconds)").isEqualTo(Duration.ofSeconds(45));
        }
    }

    @Test
    void theEnvironmentGivesADurationToo() {
        assertThat(parsed(Map.of("CAPSTREAM_TIMEOUT", "45s"), "--timeout", List.of("run")))
                .as("CAPSTREAM_TIMEOUT=45s for run --timeout").isEqualTo(Duration.ofSeconds(45));
        assertThat(parsed(Map.of("CAPSTREAM_REPORT_TIMEOUT", "3m"), "--report-timeout", List.of("sweep")))
                .as("CAPSTREAM_REPORT_TIMEOUT=3m for sweep --report-timeout").isEqualTo(Duration.ofMinutes(3));
    }

    @Command(name = "holder")
    static final class Holder {
        @Mixin
        RunOptions run = new RunOptions();
    }

    @Test
    void theSocketTimeoutReachesTheRunInSeconds() {
        Holder h = new Holder();
        new CommandLine(h).parseArgs("--timeout", "1.5s");
        assertThat(h.run.toConfig(new SimOptions()).target().timeoutS()).as("--timeout 1.5s, seconds").isEqualTo(1.5);
        Holder d = new Holder();
        new CommandLine(d).parseArgs();
        assertThat(d.run.toConfig(new SimOptions()).target().timeoutS()).as("default, seconds").isEqualTo(900.0);
    }

    @Test
    void aMalformedDurationIsAUsageErrorNamingTheOptionAndTheForms() {
        CliRun r = CliRun.run("run", "--timeout", "30x");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").first().isEqualTo("capstream run: Invalid value for option '--timeout':"
                + " '30x' is not a duration: use e.g. 500ms, 5s, 1m, 1h or PT1M (a bare number is seconds)");
    }

    @Test
    void outOfRangeValuesSayTheRangeInSeconds() {
        CliRun check = CliRun.run("check", "--timeout", "500ms");
        assertThat(check.code()).as("exit code; stderr %s", check.err()).isEqualTo(2);
        assertThat(check.lines()).as("stderr").containsExactly(
                "capstream check: --timeout must be 1..600 seconds, got 0.5; nothing was sent");
        CliRun imp = CliRun.run("import", "--timeout", "2d", "a.json");
        assertThat(imp.code()).as("exit code; stderr %s", imp.err()).isEqualTo(2);
        assertThat(imp.lines()).as("stderr").containsExactly(
                "capstream import: --timeout must be 1..86400 seconds, got 172800");
        CliRun neg = CliRun.run("sweep", "--report-timeout", "-1.5s");
        assertThat(neg.code()).as("exit code; stderr %s", neg.err()).isEqualTo(2);
        assertThat(neg.lines()).as("stderr").contains("capstream sweep: --report-timeout must be 1..86400 seconds,"
                + " got -1.5");
    }

    @Test
    void theHelpNamesADuration() {
        for (List<String> command : TIMEOUTS) {
            CommandLine sub = root(Map.of()).getSubcommands().get(command.get(0));
            String option = command.get(command.size() - 1);
            assertThat(sub.getCommandSpec().findOption(option).paramLabel()).as(String.join(" ", command))
                    .isEqualTo("DURATION");
        }
    }
}

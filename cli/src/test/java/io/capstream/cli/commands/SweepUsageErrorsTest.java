package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.capstream.cli.CapstreamMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstream sweep} usage errors (issue 12): every problem at once, one line each, exit 2,
 * before anything starts (no broker, no request reaching the target, no output directory).
 */
class SweepUsageErrorsTest {
    @TempDir
    Path tmp;

    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    /** {@code capstream sweep} against the counting target with its output under the temp dir. */
    private CliRun sweep(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("sweep", "--base-url", target.baseUrl(), "--model", "m",
                "--output-dir", tmp.resolve("out").toString()));
        all.addAll(List.of(args));
        return run(all.toArray(String[]::new));
    }

    private void assertUsageError(CliRun r, String... lines) {
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of(lines), r.lines());
        assertEquals(0, target.hits(), "nothing may reach the target");
        assertFalse(Files.exists(tmp.resolve("out")), "no output directory on a usage error");
    }

    @Test
    @Timeout(20)
    void repeatIsOneToTenAndNotForAutoRates() {
        assertUsageError(sweep("--concurrency", "1,2", "--repeat", "0"),
                "capstream sweep: --repeat must be 1..10, got 0");
        assertUsageError(sweep("--rate", "auto", "--repeat", "2"),
                "capstream sweep: --repeat applies to a grid or a search, not to --rate auto");
    }

    @Test
    @Timeout(20)
    void everyProblemIsListedAtOnce() {
        CliRun r = sweep("--requests", "0", "--slo", "ttft_p95_ms<=abc", "--burst", "2", "--run-id", "x",
                "--report-timeout", "0");
        assertUsageError(r, "capstream sweep: --requests must be between 1 and 100000, got 0",
                "capstream sweep: --slo: bad SLO 'ttft_p95_ms<=abc': threshold 'abc' is not a number",
                "capstream sweep: give the load axis: --concurrency LIST (closed loop), --rate LIST (open loop) or"
                        + " --search concurrency|rate",
                "capstream sweep: --burst does not apply to a sweep (each step's load comes from its axis)",
                "capstream sweep: --run-id and --run-id-suffix do not apply to a sweep: step N runs as <sweep id>-sN"
                        + " (give --sweep-id)",
                "capstream sweep: --report-timeout must be 1..86400 seconds, got 0");
    }

    @Test
    @Timeout(20)
    void everyBadAxisValueIsOneLine() {
        assertUsageError(sweep("--concurrency", "0,2.5,x,4"),
                "capstream sweep: --concurrency: 0 is not positive; every load must be > 0",
                "capstream sweep: --concurrency: 2.5 is not a whole number of slots",
                "capstream sweep: --concurrency: 'x' is not a number");
        assertUsageError(sweep("--rate", "64:2:x2"),
                "capstream sweep: --rate: range 64:2:x2 descends; START must not exceed END");
        assertUsageError(sweep("--concurrency", "1:1000:+1"),
                "capstream sweep: --concurrency: range 1:1000:+1 gives 1000 steps, at most 64");
    }

    @Test
    @Timeout(20)
    void exactlyOneAxis() {
        assertUsageError(sweep("--concurrency", "1,2", "--rate", "2,4"),
                "capstream sweep: --concurrency and --rate are two axes: give one (or --search concurrency|rate)");
        assertUsageError(sweep("--search", "concurrency", "--concurrency", "1,2", "--slo", "ttft_p95_ms<=300"),
                "capstream sweep: --search chooses the loads itself: give no --concurrency or --rate list with it");
    }

    @Test
    @Timeout(20)
    void theSearchNeedsAnAxisSlosAndSaneBounds() {
        assertUsageError(sweep("--search", "speed", "--slo", "ttft_p95_ms<=300"),
                "capstream sweep: --search must be concurrency or rate, got 'speed'");
        assertUsageError(sweep("--search", "concurrency"),
                "capstream sweep: --search needs at least one --slo (it looks for the largest load meeting them)");
        assertUsageError(sweep("--search", "concurrency", "--slo", "ttft_p95_ms<=300", "--search-start", "1.5",
                        "--max-steps", "0"),
                "capstream sweep: --max-steps must be between 1 and 64, got 0",
                "capstream sweep: --search concurrency: --search-start and --search-max are whole numbers of slots");
        assertUsageError(sweep("--search", "rate", "--slo", "ttft_p95_ms<=300", "--search-start", "10",
                        "--search-max", "5"),
                "capstream sweep: --search-max 5 is below --search-start 10");
    }

    @Test
    @Timeout(20)
    void theAxisDecidesTheLoop() {
        assertUsageError(sweep("--concurrency", "1,2", "--arrival", "poisson"),
                "capstream sweep: --concurrency steps run a closed loop: --arrival poisson needs --rate steps");
        assertUsageError(sweep("--rate", "1,2", "--arrival", "closed"),
                "capstream sweep: --rate steps run an open loop: --arrival must be constant, poisson or gamma (default"
                        + " poisson)");
        // was "--rate-schedule needs an open loop": sweep never takes a schedule, whatever the axis
        assertUsageError(sweep("--concurrency", "1,2", "--rate-schedule", "0s:2,10s:20"),
                "capstream sweep: sweep does not take --rate-schedule (each step's load comes from its axis)");
        assertUsageError(sweep("--rate", "1,2", "--rate-schedule", "0s:2,10s:20"),
                "capstream sweep: sweep does not take --rate-schedule (each step's load comes from its axis)");
        assertUsageError(sweep("--rate", "1,2", "--ramp-up", "2s"),
                "capstream sweep: --ramp-up applies to the closed loop (--arrival closed), not to --arrival poisson");
    }

    @Test
    @Timeout(20)
    void aSweepIdOrOutputDirThatCannotNameFilesIsRefused() throws Exception {
        assertUsageError(sweep("--concurrency", "1", "--sweep-id", "a/b"),
                "capstream sweep: --sweep-id must not contain '/' (it names the report file): 'a/b'");
        Path file = Files.writeString(tmp.resolve("afile"), "x");
        CliRun r = run("sweep", "--base-url", target.baseUrl(), "--model", "m", "--concurrency", "1",
                "--output-dir", file.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream sweep: --output-dir: " + file + " exists and is not a directory"), r.lines());
        r = run("sweep", "--base-url", target.baseUrl(), "--model", "m", "--concurrency", "1",
                "--output-dir", "/proc/capstream-sweep-x");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.lines().size(), r.err());
        assertThat(r.lines().get(0)).as(r.err())
                .startsWith("capstream sweep: --output-dir: cannot create files in /proc (");
        assertEquals(0, target.hits());
    }

    @Test
    void helpListsTheAxesAsListsAndRunKeepsItsSingleLevelOptions() {
        CommandLine root = CapstreamMain.newCommandLine(io.capstream.cli.config.ConfigDefaultProvider.fromArgs(
                new String[0], java.util.Map.of()));
        String sweepHelp = root.getSubcommands().get("sweep").getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(sweepHelp).contains("--concurrency=LIST");
        assertThat(sweepHelp).contains("--rate=LIST");
        assertThat(sweepHelp).contains("--search=AXIS");
        assertThat(sweepHelp).contains("--slo=SLO");
        assertThat(sweepHelp).doesNotContain("--concurrency=N");
        for (String cmd : List.of("run", "generate")) {
            String help = root.getSubcommands().get(cmd).getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertThat(help).contains("--concurrency=N");
            assertThat(help).contains("--rate=RPS");
            assertThat(help).contains("--slo=SLO");
        }
    }

    /** Issue 30: --rate auto[:N] is checked with the rest, before anything starts. */
    @Test
    @Timeout(20)
    void rateAutoProblemsAreOneLineUsageErrors() {
        assertUsageError(sweep("--rate", "auto:0"), "capstream sweep: --rate auto:N needs N, the rates between the"
                + " synchronous and the throughput step, a whole number 1..64, got '0'");
        assertUsageError(sweep("--rate", "auto:x"), "capstream sweep: --rate auto:N needs N, the rates between the"
                + " synchronous and the throughput step, a whole number 1..64, got 'x'");
        assertUsageError(sweep("--rate", "auto", "--search", "rate", "--slo", "ttft_p95_ms<=300"),
                "capstream sweep: --search chooses the loads itself: give no --concurrency or --rate list with it");
        assertUsageError(sweep("--rate", "auto", "--arrival", "closed"),
                "capstream sweep: --rate steps run an open loop: --arrival must be constant, poisson or gamma (default"
                        + " poisson)");
        assertUsageError(sweep("--rate", "auto", "--sweep-id", "x".repeat(196)),
                "capstream sweep: --sweep-id makes the step run ids 201 characters long, at most 200");
    }
}

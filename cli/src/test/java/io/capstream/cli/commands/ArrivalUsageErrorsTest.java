package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The arrival options of issue 30 ({@code --burstiness}, {@code --rate-schedule}, {@code --steady-state}) refused
 * before anything starts: one line naming the option, exit 2, nothing reaching the target; for {@code run},
 * {@code sweep} and {@code rerun}.
 */
class ArrivalUsageErrorsTest {
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

    private CliRun runWith(String... args) {
        List<String> all = new ArrayList<>(List.of("run", "--base-url", target.baseUrl(), "--model", "m"));
        all.addAll(List.of(args));
        return run(all.toArray(String[]::new));
    }

    private void assertUsageError(CliRun r, String... lines) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly(lines);
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(30)
    void burstinessMustBeAPositiveShapeOfGammaArrivals() {
        assertUsageError(runWith("--arrival", "gamma", "--rate", "40", "--burstiness", "-0.5"),
                "capstream run: --burstiness must be a number > 0 (the gamma shape: 1 = Poisson, smaller is burstier),"
                        + " got -0.5");
        assertUsageError(runWith("--arrival", "gamma", "--rate", "40", "--burstiness", "0"),
                "capstream run: --burstiness must be a number > 0 (the gamma shape: 1 = Poisson, smaller is burstier),"
                        + " got 0.0");
        assertUsageError(runWith("--arrival", "poisson", "--rate", "40", "--burstiness", "0.5"),
                "capstream run: --burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival"
                        + " poisson");
        assertUsageError(runWith("--burstiness", "0.5"),
                "capstream run: --burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival"
                        + " closed");
        assertUsageError(runWith("--arrival", "gamma", "--rate", "40"),
                "capstream run: --arrival gamma needs --burstiness B > 0 (the gamma shape: 1 = Poisson, smaller is"
                        + " burstier)");
    }

    @Test
    @Timeout(30)
    void aRateScheduleMustIncreaseAndNeedsAnOpenLoopWithoutRate() throws Exception {
        assertUsageError(runWith("--arrival", "poisson", "--rate-schedule", "0s:2,60s:20,30s:5"),
                "capstream run: --rate-schedule times must increase: 30s follows 60s");
        assertUsageError(runWith("--arrival", "poisson", "--rate-schedule", "0s:2,60s"),
                "capstream run: --rate-schedule expects TIME:RATE points separated by commas (e.g. 0s:2,60s:20), got"
                        + " '60s'");
        assertUsageError(runWith("--rate-schedule", "0s:2,60s:20"),
                "capstream run: --rate-schedule needs an open loop: --arrival constant, poisson or gamma");
        assertUsageError(runWith("--arrival", "constant", "--rate", "5", "--rate-schedule", "0s:2,60s:20"),
                "capstream run: --rate and --rate-schedule both give the rate: give one (the schedule's rate at 0s is"
                        + " its first)");
        Path trace = Files.writeString(tmp.resolve("trace.jsonl"),
                "{\"timestamp\": 0, \"input_length\": 100, \"output_length\": 10}\n");
        assertUsageError(runWith("--trace", trace.toString(), "--rate-schedule", "0s:2,60s:20"),
                "capstream run: --rate-schedule does not apply to --trace: the trace's timestamps are the arrivals");
    }

    @Test
    @Timeout(30)
    void theSteadyStateWindowEndsAfterItsStart() {
        assertUsageError(runWith("--steady-state", "70:10"),
                "capstream run: --steady-state needs START:END seconds with 0 <= START < END, got 70:10");
        assertUsageError(runWith("--steady-state", "10:10"),
                "capstream run: --steady-state needs START:END seconds with 0 <= START < END, got 10:10");
        assertUsageError(runWith("--steady-state", "ten"),
                "capstream run: --steady-state expects START:END in seconds (e.g. 10:70), got 'ten'");
    }

    @Test
    @Timeout(30)
    void aSweepKeepsBurstinessButRefusesARateSchedule() {
        List<String> base = List.of("sweep", "--base-url", target.baseUrl(), "--model", "m", "--output-dir",
                tmp.resolve("out").toString());
        List<String> args = new ArrayList<>(base);
        args.addAll(List.of("--rate", "2,4", "--arrival", "poisson", "--rate-schedule", "0s:2,60s:20"));
        CliRun r = run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.lines()).as("a rate step is one constant rate").containsExactly("capstream sweep: sweep does not"
                + " take --rate-schedule (each step's load comes from its axis)");
        args = new ArrayList<>(base);
        args.addAll(List.of("--rate", "2,4", "--burstiness", "0.5"));
        r = run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.lines()).as("a rate sweep's steps are Poisson unless --arrival gamma is given").containsExactly(
                "capstream sweep: --burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival"
                        + " poisson");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(30)
    void rerunRefusesTheArrivalOptions() {
        for (String[] o : List.of(new String[] {"--burstiness", "0.5"}, new String[] {"--rate-schedule", "0s:1"},
                new String[] {"--steady-state", "1:2"})) {
            CliRun r = run("rerun", "some-run", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url",
                    "mock://x", o[0], o[1]);
            assertThat(r.code()).as(r.err()).isEqualTo(2);
            assertThat(r.lines()).as("stderr").containsExactly("capstream rerun: " + o[0]
                    + " cannot be given: rerun sends the workload of run some-run as it was");
        }
    }
}

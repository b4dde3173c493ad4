package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.options.CancelOptions;
import io.capstream.loadgen.run.CancelShape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** Issue 30: {@code --cancel-rate} and {@code --cancel-after} are parsed with units and checked before any load. */
class RunCancelUsageTest {
    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    private static CancelShape shape(String... args) {
        CancelOptions o = new CancelOptions();
        new CommandLine(o).parseArgs(args);
        return o.toShape();
    }

    @Test
    void durationsWithUnitsAndAnOptionalSpreadBecomeSeconds() {
        assertThat(shape("--cancel-rate", "0.5", "--cancel-after", "100ms")).as("100ms")
                .isEqualTo(new CancelShape(0.5, 0.1, null));
        assertThat(shape("--cancel-rate", "1", "--cancel-after", "2s,500ms")).as("2s,500ms")
                .isEqualTo(new CancelShape(1.0, 2.0, 0.5));
        assertThat(shape()).as("no option").isEqualTo(CancelShape.NONE);
    }

    @Test
    @Timeout(20)
    void aRateOutsideZeroToOneIsAUsageErrorBeforeAnyLoad() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--cancel-rate", "1.5",
                "--cancel-after", "100ms");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly(
                "capstream run: --cancel-rate must be a share between 0 and 1, got 1.5");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(20)
    void aRateWithoutATimeAndABadDurationAreUsageErrors() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--cancel-rate", "0.5");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream run: --cancel-rate needs --cancel-after"
                + " DURATION[,STDDEV] (when the client closes the stream)");
        CliRun bad = run("run", "--base-url", target.baseUrl(), "--model", "m", "--cancel-rate", "0.5",
                "--cancel-after", "soon");
        assertThat(bad.code()).as("exit code; stderr: %s", bad.err()).isEqualTo(2);
        assertThat(bad.lines()).as("stderr").containsExactly("capstream run: --cancel-after: 'soon' is not a duration:"
                + " use e.g. 500ms, 5s, 1m, 1h or PT1M (a bare number is seconds)");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }
}

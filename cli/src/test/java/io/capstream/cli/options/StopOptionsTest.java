package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.stop.StopRules;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The stop-rule options (issue 30) land in the run's StopRules, for run and sweep alike. */
class StopOptionsTest {
    private static RunConfig run(String... args) {
        RunOptionsSloTest.RunHolder h = new RunOptionsSloTest.RunHolder();
        new CommandLine(h).parseArgs(args);
        return h.run.toConfig(new SimOptions());
    }

    @Test
    void theRulesAreParsed() {
        assertThat(run().stop()).as("none given").isEqualTo(StopRules.NONE);
        assertThat(run("--max-error-rate", "0.2/100", "--max-consecutive-errors", "7", "--stop-on-saturation").stop())
                .isEqualTo(new StopRules(0.2, 100, 7, true));
        StopRules rate = run("--max-error-rate", "0.5").stop();
        assertThat(rate).isEqualTo(new StopRules(0.5, null, null, false));
        assertThat(rate.effectiveErrorWindow()).isEqualTo(StopRules.DEFAULT_ERROR_WINDOW);
        RunOptionsSloTest.SweepHolder sweep = new RunOptionsSloTest.SweepHolder();
        new CommandLine(sweep).parseArgs("--max-consecutive-errors", "3");
        assertThat(sweep.run.toConfig(new SimOptions()).stop()).as("sweep").isEqualTo(new StopRules(null, null, 3, false));
    }

    @Test
    void badValuesAreUsageErrors() {
        assertThatThrownBy(() -> run("--max-error-rate", "half")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--max-error-rate must be R or R/WINDOW (a share 0..1, requests), e.g. 0.2/50, got 'half'");
        assertThatThrownBy(() -> run("--max-error-rate", "0.2/50/3")).isInstanceOf(IllegalArgumentException.class);
        assertThat(run("--max-error-rate", "1.5/0").stop().problems()).containsExactly(
                "--max-error-rate must be a share between 0 and 1 (exclusive), got 1.5",
                "--max-error-rate's window must be at least 1 request, got 0");
        assertThat(run("--max-consecutive-errors", "0").validate(k -> null))
                .contains("--max-consecutive-errors must be at least 1, got 0");
    }
}

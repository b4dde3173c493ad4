package io.capstream.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.loadgen.run.RunConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --slo} lands in the report context; the sweep's options have no load level of their own. */
class RunOptionsSloTest {
    @Command(name = "holder")
    static final class RunHolder {
        @Mixin
        RunOptions run = new RunOptions();
    }

    @Command(name = "holder")
    static final class SweepHolder {
        @Mixin
        WorkloadOptions run = new WorkloadOptions();
    }

    @Test
    void slosGoToTheReportContextInOrder() {
        RunHolder h = new RunHolder();
        new CommandLine(h).parseArgs("--slo", "ttft_p95_ms<=300", "--slo", "error_rate<=0.01", "--concurrency", "3");
        RunConfig c = h.run.toConfig(new SimOptions());
        assertEquals(List.of("ttft_p95_ms<=300", "error_rate<=0.01"), c.report().slos());
        assertNull(c.report().sweep());
        assertEquals(3, c.load().concurrency());
        RunHolder none = new RunHolder();
        new CommandLine(none).parseArgs();
        assertEquals(List.of(), none.run.toConfig(new SimOptions()).report().slos());
    }

    @Test
    void workloadOptionsKeepTheDefaultLoadLevel() {
        SweepHolder h = new SweepHolder();
        new CommandLine(h).parseArgs("--requests", "32", "--slo", "ttft_p95_ms<=300");
        RunConfig c = h.run.toConfig(new SimOptions());
        assertEquals(RunConfig.DEFAULT_CONCURRENCY, c.load().concurrency());
        assertNull(c.load().rateRps());
        assertEquals(32, c.load().requests());
        assertEquals(List.of("ttft_p95_ms<=300"), c.report().slos());
    }
}

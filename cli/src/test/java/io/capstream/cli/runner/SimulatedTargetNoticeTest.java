package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.cli.options.RunOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A --model without --base-url measured the built-in simulated engine without a word (fresh-user finding). */
class SimulatedTargetNoticeTest {
    private static RunOptions options(String... args) {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    @Test
    void aModelWithoutABaseUrlIsToldItMeasuresTheSimulatedEngine() {
        assertEquals("--model Qwen/Qwen3-8B without --base-url: the target is the built-in simulated engine, not your"
                + " endpoint (give --base-url to measure it)",
                RunDriver.simulatedTargetNotice(options("--model", "Qwen/Qwen3-8B")));
        assertNull(RunDriver.simulatedTargetNotice(options()), "the default run: the sim, as the README says");
        assertNull(RunDriver.simulatedTargetNotice(options("--model", "capstream-sim")), "the sim's own model");
        assertNull(RunDriver.simulatedTargetNotice(options("--base-url", "http://127.0.0.1:9/v1", "--model", "m")));
    }
}

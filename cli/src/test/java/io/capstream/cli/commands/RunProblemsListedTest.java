package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several wrong run parameters are listed at once, one line each, before anything starts (the options
 * are resolved and checked once: exit 2, no broker, not even the {@code /models} probe).
 */
class RunProblemsListedTest {
    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    @Test
    @Timeout(20)
    void everyProblemOfTheRunIsOneLine() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--requests", "0",
                "--max-model-len", "1000", "--run-id", "a/b");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --requests must be between 1 and 100000, got 0",
                "capstream run: --max-model-len 1000 must exceed --max-tokens + --margin (1088)",
                "capstream run: --run-id must not contain '/' (it names the report file): 'a/b'"), r.lines());
        assertEquals(0, target.hits(), "nothing may reach the target");
    }

    @Test
    @Timeout(20)
    void theSimulatedTargetIsCheckedBeforeItStarts() {
        CliRun r = run("run", "--ctx-tokens", "16", "--sim-slots", "0");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: simulated engine: batch slots must be >= 1",
                "capstream run: --ctx-tokens must be 0 or between 32 and 1048576, got 16"), r.lines());
    }
}

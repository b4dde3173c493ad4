package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code run --slo} and {@code generate --slo}: each bad SLO is one usage-error line with the others (issue 12, part 3). */
class RunSloUsageTest {
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
    void everyBadSloIsOneLineAfterTheRunsOtherProblems() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--requests", "0", "--slo", "fast",
                "--slo", "ttft_p95_ms<=300", "--slo", "error_rate<=2");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --requests must be between 1 and 100000, got 0",
                "capstream run: --slo: bad SLO 'fast': expected <metric><op><threshold> with op one of <=, <, >=, >,"
                        + " e.g. ttft_p95_ms<=500 or error_rate<=0.01",
                "capstream run: --slo: bad SLO 'error_rate<=2': error_rate is a fraction between 0 and 1 (e.g. 0.01"
                        + " for 1%)"), r.lines());
        assertEquals(0, target.hits(), "nothing may reach the target");
    }

    @Test
    @Timeout(20)
    void generateChecksItsSlosToo() {
        CliRun r = run("generate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--base-url", target.baseUrl(), "--model", "m", "--slo", "ttft_p97_ms<=300");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream generate: --slo: bad SLO 'ttft_p97_ms<=300': percentile p97 is not computed;"
                + " use p50, p95 or p99"), r.lines());
        assertEquals(0, target.hits());
    }
}

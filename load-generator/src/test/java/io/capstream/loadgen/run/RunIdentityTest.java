package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The run-identity group: ids, labels and seed, every problem listed. */
class RunIdentityTest {
    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"));
    }

    @Test
    void theWithersFillTheIdentity() {
        RunIdentity id = RunIdentity.DEFAULTS.withSeed(7).withGpu("h100").withRunIdSuffix("a").withWorkerId("w1");
        assertEquals(new RunIdentity(null, "a", "w1", 1, 7, "h100"), id);
        assertEquals(List.of(), id.problems());
    }

    @Test
    void everyProblemOfTheGroupIsListed() {
        assertEquals(List.of("expected workers must be >= 1, got 0",
                "--run-id must not contain '/' (it names the report file): 'a/b'"),
                RunIdentity.DEFAULTS.withExpectedWorkers(0).withRunId("a/b").problems());
        assertEquals(List.of("--run-id-suffix makes the run id 227 characters long, at most 200"),
                RunIdentity.DEFAULTS.withRunIdSuffix("s".repeat(200)).problems());
    }

    @Test
    void withersChangeOneValue() {
        RunIdentity id = RunIdentity.DEFAULTS.withSeed(3);
        assertEquals(new RunIdentity("r-1", null, null, 1, 3, null), id.withRunId("r-1"));
        assertEquals(new RunIdentity(null, "c0", null, 1, 3, null), id.withRunIdSuffix("c0"));
        assertEquals(new RunIdentity(null, null, "w", 1, 3, null), id.withWorkerId("w"));
    }
}

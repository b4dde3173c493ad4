package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The run-identity group: ids, labels and seed, every problem listed. */
class RunIdentityTest {
    private static RunConfig.Builder b() {
        return RunConfig.builder("http://127.0.0.1:8000/v1", "m");
    }

    @Test
    void theBuilderFillsTheIdentity() {
        RunIdentity id = b().seed(7).gpu("h100").runIdSuffix("a").workerId("w1").build().identity();
        assertEquals(new RunIdentity(null, "a", "w1", 1, 7, "h100"), id);
        assertEquals(List.of(), id.problems());
    }

    @Test
    void everyProblemOfTheGroupIsListed() {
        assertEquals(List.of("expected workers must be >= 1, got 0",
                "--run-id must not contain '/' (it names the report file): 'a/b'"),
                b().expectedWorkers(0).runId("a/b").build().identity().problems());
        assertEquals(List.of("--run-id-suffix makes the run id 227 characters long, at most 200"),
                b().runIdSuffix("s".repeat(200)).build().identity().problems());
    }

    @Test
    void withersChangeOneValue() {
        RunIdentity id = b().seed(3).build().identity();
        assertEquals(new RunIdentity("r-1", null, null, 1, 3, null), id.withRunId("r-1"));
        assertEquals(new RunIdentity(null, "c0", null, 1, 3, null), id.withRunIdSuffix("c0"));
        assertEquals(new RunIdentity(null, null, "w", 1, 3, null), id.withWorkerId("w"));
    }
}

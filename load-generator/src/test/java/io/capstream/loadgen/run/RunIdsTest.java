package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunIdsTest {
    @Test
    void derivedSuffixedAndOverridden() {
        Instant t = Instant.parse("2026-08-01T12:00:00.987Z");
        assertEquals("benchmark-20260801T120000Z", RunIds.runId(t, null, null));
        assertEquals("benchmark-20260801T120000Z-w2", RunIds.runId(t, null, "w2"));
        assertEquals("my-run", RunIds.runId(t, "my-run", "ignored"));
        assertEquals("2026-08-01T12:00:00Z", RunIds.utcSeconds(t));
    }

    @Test
    void runningMedianIsWithinOnePercent() {
        RunningMedian m = new RunningMedian();
        assertEquals(null, m.median());
        for (int i = 1; i <= 101; i++) {
            m.add(i);
        }
        assertEquals(51.0, m.median(), 51.0 * 0.015);
    }
}

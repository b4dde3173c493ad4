package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.cli.distributed.ShareWatch;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When the coordinator gives a run up because a share was never taken (times given, no waiting). */
class UntakenShareTest {
    private static final long START = 1_000_000L;

    @Test
    void aShareNotTakenThirtyFiveSecondsAfterTheStartGivesTheRunUp() {
        ShareWatch.Status oneTaken = new ShareWatch.Status(2, Map.of(0, "capstream-worker-a"),
                Map.of(0, "capstream-worker-a", 1, "capstream-worker-b"), 2, 2);
        assertNull(ShareLooks.untakenTooLong(START + 34_999, START, oneTaken), "still within the bound");
        assertEquals("share(s) [1] of 2 not taken by a worker 35 s after the start (shares taken: 0"
                        + " (capstream-worker-a); not taken: 1 (assigned to capstream-worker-b); 2 workers in group"
                        + " capstream-workers); a worker refuses a share whose start passed 30 s ago",
                ShareLooks.untakenTooLong(START + 35_000, START, oneTaken));
        ShareWatch.Status all = new ShareWatch.Status(2, Map.of(0, "a", 1, "b"), Map.of(0, "a", 1, "b"), 2, 2);
        assertNull(ShareLooks.untakenTooLong(START + 600_000, START, all), "all taken");
    }
}

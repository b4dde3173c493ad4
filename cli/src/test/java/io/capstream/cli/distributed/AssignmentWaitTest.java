package io.capstream.cli.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/** The coordinator's wait for one share per worker, on a clock the pauses advance (no real waiting). */
class AssignmentWaitTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private static ShareWatch.Status status(int members, Map<Integer, String> assigned, int holders) {
        return new ShareWatch.Status(2, Map.of(), assigned, members, holders);
    }

    /** Runs the wait with the status seen at each fake time (ms since the start). */
    private static AssignmentWait.Result run(LongFunction<ShareWatch.Status> at, boolean stopped) throws Exception {
        AtomicLong nowNs = new AtomicLong(1_000_000_000L);
        long start = nowNs.get();
        AssignmentWait w = new AssignmentWait(TIMEOUT, nowNs::get, ms -> nowNs.addAndGet(ms * 1_000_000L));
        return w.await(() -> at.apply((nowNs.get() - start) / 1_000_000L), () -> stopped);
    }

    @Test
    void noWorkerInTheGroupEndsTheWaitAfterFiveSeconds() throws Exception {
        AssignmentWait.Result r = run(t -> status(0, Map.of(), 0), false);
        assertEquals(AssignmentWait.Outcome.NO_WORKER, r.outcome(), r.toString());
        assertTrue(r.waited().compareTo(AssignmentWait.NO_WORKER_WAIT) >= 0
                && r.waited().compareTo(AssignmentWait.NO_WORKER_WAIT.plusMillis(AssignmentWait.POLL_MS)) <= 0,
                "waited " + r.waited());
    }

    @Test
    void aWorkerThatJoinsWithinTheWaitGetsItsShare() throws Exception {
        AssignmentWait.Result r = run(t -> t < 3000 ? status(0, Map.of(), 0)
                : status(2, Map.of(0, "w0", 1, "w1"), 2), false);
        assertEquals(AssignmentWait.Outcome.ONE_PER_WORKER, r.outcome(), r.toString());
        assertTrue(r.waited().toMillis() >= 3000 && r.waited().toMillis() < 3000 + AssignmentWait.POLL_MS * 2,
                "waited " + r.waited());
    }

    @Test
    void membersThatHoldNoShareEndTheWaitAtTheTimeoutAsNoWorker() throws Exception {
        AssignmentWait.Result r = run(t -> status(1, Map.of(), 0), false);
        assertEquals(AssignmentWait.Outcome.NO_WORKER, r.outcome(), r.toString());
        assertTrue(r.waited().compareTo(TIMEOUT) >= 0, "waited " + r.waited());
    }

    @Test
    void oneWorkerHoldingBothSharesIsPartialAtTheTimeout() throws Exception {
        AssignmentWait.Result r = run(t -> status(1, Map.of(0, "w0", 1, "w0"), 1), false);
        assertEquals(AssignmentWait.Outcome.PARTIAL, r.outcome(), r.toString());
        assertTrue(r.waited().compareTo(TIMEOUT) >= 0, "waited " + r.waited());
    }

    @Test
    void aGroupThatNeverAnswersIsPartialAtTheTimeout() throws Exception {
        AssignmentWait.Result r = run(t -> null, false);
        assertEquals(AssignmentWait.Outcome.PARTIAL, r.outcome(), r.toString());
        assertEquals(null, r.last(), r.toString());
    }

    @Test
    void aStopEndsTheWaitAtOnce() throws Exception {
        AssignmentWait.Result r = run(t -> status(0, Map.of(), 0), true);
        assertEquals(AssignmentWait.Outcome.STOPPED, r.outcome(), r.toString());
        assertEquals(Duration.ZERO, r.waited(), r.toString());
    }
}

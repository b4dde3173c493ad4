package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ClosedLoop} on a {@link ManualClock}: ramp-up timers, scheduled starts and the deadline, without real waiting. */
class ClosedLoopClockTest {
    private static final long T0 = 7_000_000_000L;
    private static final long MS = 1_000_000L;

    @RegisterExtension
    final EventLoopFixture eventLoop = new EventLoopFixture();
    private final ManualClock clock = new ManualClock(T0);
    private final List<long[]> launches = new CopyOnWriteArrayList<>();
    private final List<Runnable> inFlight = Collections.synchronizedList(new ArrayList<>());

    @Test
    void rampUpStartsSlotKAtKTimesRampOverSlotsAndTheDeadlineEndsTheSlotsStillWaiting() throws Exception {
        // 4 slots over a 400 ms ramp: slot k takes its first request k x 100 ms after T0; deadline at 250 ms
        DriverConfig config = new DriverConfig(100, 4, T0, T0 + 250 * MS, List.of(eventLoop.context()), () -> false, 400 * MS);
        CompletableFuture<Integer> drained = new ClosedLoop(config, (index, scheduledNs, context, onEnd) -> {
            inFlight.add(() -> context.runOnContext(v -> onEnd.run()));
            launches.add(new long[] {index, scheduledNs});
        }, IoYield.NONE, clock).start();
        awaitLaunches(1);
        clock.awaitTimersSet(3);
        assertEquals(List.of(100L, 200L, 300L), clock.delaysMs());

        clock.advanceTo(T0 + 150 * MS); // slot 1's timer fires
        awaitLaunches(2);
        inFlight.remove(0).run(); // request 0 ends: its slot takes the next index at once
        awaitLaunches(3);

        clock.advanceTo(T0 + 260 * MS); // slot 2's timer fires after the deadline: slots 2 and 3 end
        EventLoopFixture.awaitUntil(() -> clock.pendingTimers() == 0);
        assertFalse(drained.isDone(), "requests 1 and 2 are still in flight");
        inFlight.remove(0).run();
        inFlight.remove(0).run();
        assertEquals(3, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("0@0", "1@150000000", "2@150000000"),
                launches.stream().map(l -> l[0] + "@" + l[1]).toList());
    }

    @Test
    void requestsEndingAfterTheDeadlineStartNoMore() throws Exception {
        DriverConfig config = new DriverConfig(10, 2, T0, T0 + 100 * MS, List.of(eventLoop.context()), () -> false, 0);
        CompletableFuture<Integer> drained = new ClosedLoop(config, (index, scheduledNs, context, onEnd) -> {
            inFlight.add(() -> context.runOnContext(v -> onEnd.run()));
            launches.add(new long[] {index, scheduledNs});
        }, IoYield.NONE, clock).start();
        awaitLaunches(2);
        clock.advanceTo(T0 + 40 * MS);
        inFlight.remove(0).run();
        awaitLaunches(3);
        clock.advanceTo(T0 + 100 * MS); // at the deadline: nothing starts any more
        inFlight.remove(0).run();
        inFlight.remove(0).run();
        assertEquals(3, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("0@0", "1@0", "2@40000000"), launches.stream().map(l -> l[0] + "@" + l[1]).toList());
        assertEquals(List.of(), clock.delaysMs(), "no ramp-up, no timer");
    }

    private void awaitLaunches(int count) {
        EventLoopFixture.awaitUntil(() -> launches.size() >= count);
        assertEquals(count, launches.size());
    }

}

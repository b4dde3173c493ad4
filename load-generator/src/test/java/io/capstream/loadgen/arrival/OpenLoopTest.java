package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link OpenLoop} on a {@link ManualClock}: the schedule, the in-flight cap, the deadline and a stop, without real waiting. */
class OpenLoopTest {
    private static final long T0 = 5_000_000_000L;
    private static final long MS = 1_000_000L;

    @RegisterExtension
    final EventLoopFixture eventLoop = new EventLoopFixture();
    private final ManualClock clock = new ManualClock(T0);
    private final AtomicBoolean stop = new AtomicBoolean();
    /** Requests launched, in launch order. */
    private final List<Launch> launches = new CopyOnWriteArrayList<>();
    /** onEnd of requests still in flight, in launch order. */
    private final List<Runnable> inFlight = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();

    /** One launch: index, scheduled start after T0 (ns) and the clock at the launch, after T0 (ns). */
    private record Launch(int index, long scheduledNs, long startedNs) {
    }

    private CompletableFuture<Integer> start(int requests, int slots, long deadlineNs, double rateRps,
                                             boolean endAtOnce) {
        return start(requests, slots, deadlineNs, new ArrivalSchedule(ArrivalMode.CONSTANT, rateRps, 1), endAtOnce);
    }

    private CompletableFuture<Integer> start(int requests, int slots, long deadlineNs, ArrivalSchedule schedule,
                                             boolean endAtOnce) {
        DriverConfig config = new DriverConfig(requests, slots, T0, deadlineNs, List.of(eventLoop.context()), stop::get, 0);
        RequestLauncher launcher = (index, scheduledNs, context, onEnd) -> {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            Launch launch = new Launch(index, scheduledNs, clock.nanoTime() - T0);
            Runnable end = () -> {
                running.decrementAndGet();
                onEnd.run();
            };
            if (!endAtOnce) {
                inFlight.add(end); // before the launch is visible to the test thread
            }
            launches.add(launch);
            if (endAtOnce) {
                end.run();
            }
        };
        return new OpenLoop(config, schedule, launcher, clock).start();
    }

    @Test
    void requestKStartsAtItsScheduledOffsetAndTheLoopSleepsUntilTheNextArrival() throws Exception {
        CompletableFuture<Integer> drained = start(4, 10, Long.MAX_VALUE, 16, true); // every 62.5 ms
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 62_500_000);
        awaitLaunches(2);
        clock.awaitTimersSet(2);
        clock.advanceTo(T0 + 135 * MS); // 10 ms after request 2 is due
        awaitLaunches(3);
        clock.awaitTimersSet(3);
        clock.advanceTo(T0 + 190 * MS);
        assertEquals(4, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(new Launch(0, 0, 0), new Launch(1, 62_500_000, 62_500_000),
                new Launch(2, 125 * MS, 135 * MS), new Launch(3, 187_500_000, 190 * MS)), launches);
        ArrivalSchedule expected = new ArrivalSchedule(ArrivalMode.CONSTANT, 16, 1);
        for (Launch l : launches) {
            assertEquals(expected.next(), l.scheduledNs(), "request " + l.index() + " at its schedule offset");
        }
        // woken (whole ms, rounded down) when the next request is due: 62.5 ms, 125 ms, 187.5 ms
        assertEquals(List.of(62L, 62L, 52L), clock.delaysMs());
        assertEquals(0, clock.pendingTimers());
    }

    @Test
    void atMostSlotsRequestsRunTheOthersWaitInOrderKeepingTheirScheduledStart() throws Exception {
        CompletableFuture<Integer> drained = start(5, 2, Long.MAX_VALUE, 16, false);
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 300 * MS); // requests 1..4 are due, one slot is free
        awaitLaunches(2);
        clock.advanceTo(T0 + 320 * MS);
        for (int launched = 3; launched <= 5; launched++) {
            endOldest(); // the oldest waiting request takes the freed slot
            awaitLaunches(launched);
            assertFalse(drained.isDone());
        }
        endOldest();
        endOldest();
        assertEquals(5, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(new Launch(0, 0, 0), new Launch(1, 62_500_000, 300 * MS), new Launch(2, 125 * MS, 320 * MS),
                new Launch(3, 187_500_000, 320 * MS), new Launch(4, 250 * MS, 320 * MS)), launches);
        assertEquals(2, maxRunning.get());
        assertEquals(List.of(62L), clock.delaysMs(), "no timer once every request is due");
    }

    @Test
    void aRateScheduleEndingAtZeroEndsTheRunAfterItsLastArrivalWithoutADeadline() throws Exception {
        // 10 req/s for 200 ms, then down to 0 at 300 ms: Λ = 2.5, arrivals u = 0, 1, 2 at 0, 100 and 200 ms
        ArrivalSchedule schedule = new ArrivalSchedule(new ArrivalProcess(ArrivalMode.CONSTANT, 0, null,
                io.capstream.schemas.load.RateSchedule.parse("0s:10,200ms:10,300ms:0")), 1);
        CompletableFuture<Integer> drained = start(10, 10, Long.MAX_VALUE, schedule, true);
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 100 * MS);
        awaitLaunches(2);
        clock.awaitTimersSet(2);
        clock.advanceTo(T0 + 200 * MS);
        assertEquals(3, drained.get(10, TimeUnit.SECONDS), "the 3 arrivals the schedule offers, of 10 planned");
        assertEquals(List.of(new Launch(0, 0, 0), new Launch(1, 100 * MS, 100 * MS), new Launch(2, 200 * MS, 200 * MS)),
                launches);
        assertEquals(0, clock.pendingTimers(), "no timer waits for an arrival that never comes");
    }

    @Test
    void noRequestStartsAtOrAfterTheDeadline() throws Exception {
        CompletableFuture<Integer> drained = start(100, 10, T0 + 150 * MS, 16, true);
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 62_500_000);
        awaitLaunches(2);
        clock.awaitTimersSet(2);
        clock.advanceTo(T0 + 125 * MS);
        awaitLaunches(3);
        clock.awaitTimersSet(3);
        clock.advanceTo(T0 + 187_500_000); // request 3 is due, after the deadline
        assertEquals(3, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(0, 1, 2), launches.stream().map(Launch::index).toList());
        assertEquals(0, clock.pendingTimers());
    }

    @Test
    void lowRatesWakeEvery100MsSoThatAStopIsNoticed() throws Exception {
        CompletableFuture<Integer> drained = start(10, 10, Long.MAX_VALUE, 0.5, true); // every 2 s
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 100 * MS);
        clock.awaitTimersSet(2);
        stop.set(true);
        clock.advanceTo(T0 + 200 * MS);
        assertEquals(1, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(100L, 100L), clock.delaysMs());
        assertEquals(List.of(new Launch(0, 0, 0)), launches);
    }

    @Test
    void aStopDropsTheRequestsWaitingForASlot() throws Exception {
        CompletableFuture<Integer> drained = start(5, 1, Long.MAX_VALUE, 16, false);
        awaitLaunches(1);
        clock.awaitTimersSet(1);
        clock.advanceTo(T0 + 300 * MS); // requests 1..4 wait for the only slot
        stop.set(true);
        endOldest();
        assertEquals(1, drained.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(new Launch(0, 0, 0)), launches);
        assertEquals(0, running.get());
    }

    /** Ends the oldest request in flight, on the context (as a real response would). */
    private void endOldest() {
        Runnable end = inFlight.remove(0);
        eventLoop.context().runOnContext(v -> end.run());
    }

    private void awaitLaunches(int count) {
        EventLoopFixture.awaitUntil(() -> launches.size() >= count);
        assertEquals(count, launches.size(), () -> "launches: " + launches);
    }
}

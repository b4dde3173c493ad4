package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClosedLoopTest {
    @RegisterExtension
    final EventLoopFixture eventLoop = new EventLoopFixture();

    private DriverConfig config(int requests, int slots) {
        return new DriverConfig(requests, slots, System.nanoTime(), Long.MAX_VALUE, List.of(eventLoop.context()),
                () -> false, 0);
    }

    @Test
    void slotsThatStartAtT0AreStartedOneAfterAnotherThroughTheYield() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        List<Runnable> pendingEnds = Collections.synchronizedList(new ArrayList<>());
        IoYield recording = (c, task) -> {
            log.add("yield");
            c.runOnContext(v -> task.run());
        };
        ClosedLoop loop = new ClosedLoop(config(6, 3), (index, scheduledNs, context, onEnd) -> {
            log.add("launch " + index);
            pendingEnds.add(onEnd);
        }, recording);
        CompletableFuture<Integer> drained = loop.start();
        awaitSize(log, 5);
        // three slots at T0: a yield between each slot's first request, none after the last one
        assertEquals(List.of("launch 0", "yield", "launch 1", "yield", "launch 2"), log);
        // requests that end together start the next indices in order (closed loop, spec §5), one per turn
        for (int i = 0; i < 3; i++) {
            Runnable end = pendingEnds.remove(0);
            eventLoop.context().runOnContext(v -> end.run());
        }
        awaitSize(log, 11);
        assertEquals(List.of("yield", "launch 3", "yield", "launch 4", "yield", "launch 5"), log.subList(5, 11));
        for (int i = 0; i < 3; i++) {
            Runnable end = pendingEnds.remove(0);
            eventLoop.context().runOnContext(v -> end.run());
        }
        assertEquals(6, drained.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aSlotsNextRequestIsScheduledWhenItsPreviousOneEndedSoThatWaitingForItsTurnIsClientQueueTime()
            throws Exception {
        // two slots whose requests end in one task: the second slot's next request starts one turn later,
        // and its scheduled start is its previous request's end, not the moment it got its turn
        long t0 = System.nanoTime();
        DriverConfig config = new DriverConfig(4, 2, t0, Long.MAX_VALUE, List.of(eventLoop.context()), () -> false, 0);
        List<Runnable> pendingEnds = Collections.synchronizedList(new ArrayList<>());
        List<long[]> starts = new CopyOnWriteArrayList<>(); // index, scheduled (ns after T0), launched (ns after T0)
        List<Runnable> turns = new CopyOnWriteArrayList<>();
        IoYield manual = (c, task) -> turns.add(task); // the test plays the event loop's turns
        CompletableFuture<Integer> drained = new ClosedLoop(config, (index, scheduledNs, context, onEnd) -> {
            starts.add(new long[] {index, scheduledNs, System.nanoTime() - t0});
            pendingEnds.add(onEnd);
        }, manual).start();
        awaitSize(turns, 1);
        runOnLoop(turns.remove(0)); // slot 2's first request (slot 1's started at once)
        awaitSize(starts, 2);
        long[] endedAt = new long[1];
        CompletableFuture<Void> ended = new CompletableFuture<>();
        eventLoop.context().runOnContext(v -> {
            endedAt[0] = System.nanoTime() - t0;
            pendingEnds.remove(0).run();
            pendingEnds.remove(0).run();
            ended.complete(null);
        });
        ended.get(10, TimeUnit.SECONDS);
        assertEquals(2, starts.size(), "no request starts inside another one's end");
        assertEquals(1, turns.size(), "one turn is asked for both slots");
        long firstTurn = System.nanoTime() - t0;
        runOnLoop(turns.remove(0));
        assertEquals(3, starts.size());
        assertEquals(1, turns.size(), "the second slot waits for the next turn");
        long secondTurn = System.nanoTime() - t0;
        runOnLoop(turns.remove(0));
        assertEquals(4, starts.size());
        assertEquals(0, turns.size());
        long[] third = starts.get(2);
        long[] fourth = starts.get(3);
        // scheduled when the previous requests ended, before the turns came: the wait is client queue time
        assertTrue(third[1] >= endedAt[0] && third[1] < firstTurn, () -> "scheduled " + third[1] + " ns");
        assertTrue(fourth[1] >= endedAt[0] && fourth[1] < secondTurn && fourth[2] > secondTurn,
                () -> "scheduled " + fourth[1] + " ns, launched " + fourth[2] + " ns");
        assertEquals(List.of(2L, 3L), List.of(starts.get(2)[0], starts.get(3)[0]));
        runOnLoop(() -> pendingEnds.forEach(Runnable::run));
        while (!drained.isDone()) {
            awaitSize(turns, 1);
            runOnLoop(turns.remove(0));
        }
        assertEquals(4, drained.get(10, TimeUnit.SECONDS));
    }

    private void runOnLoop(Runnable task) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        eventLoop.context().runOnContext(v -> {
            task.run();
            done.complete(null);
        });
        done.get(10, TimeUnit.SECONDS);
    }

    @Test
    void moreSlotsThanRequestsStartsEachRequestOnce() throws Exception {
        List<Integer> started = new CopyOnWriteArrayList<>();
        ClosedLoop loop = new ClosedLoop(config(2, 8), (index, scheduledNs, context, onEnd) -> {
            started.add(index);
            onEnd.run();
        });
        assertEquals(2, loop.start().get(10, TimeUnit.SECONDS));
        assertEquals(List.of(0, 1), started);
    }

    @Test
    void eventLoopYieldRunsOnTheContextAfterTheTasksAlreadyQueued() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Context> ranOn = new CompletableFuture<>();
        eventLoop.context().runOnContext(v -> {
            eventLoop.context().runOnContext(a -> order.add("queued before"));
            IoYield.EVENT_LOOP.afterIo(eventLoop.context(), () -> {
                order.add("yielded");
                ranOn.complete(Vertx.currentContext());
            });
            eventLoop.context().runOnContext(c -> order.add("queued after"));
        });
        assertSame(eventLoop.context(), ranOn.get(10, TimeUnit.SECONDS));
        // a zero-delay scheduled task moves to the task queue only at the loop's next turn, after its I/O
        assertEquals(List.of("queued before", "queued after", "yielded"), order);
    }

    private static void awaitSize(List<?> list, int size) {
        EventLoopFixture.awaitUntil(() -> list.size() >= size);
        assertEquals(size, list.size(), () -> "list: " + list);
    }
}

package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
        // ending requests starts the next indices in order, with no yield (closed loop, spec §5)
        for (int i = 0; i < 3; i++) {
            Runnable end = pendingEnds.remove(0);
            eventLoop.context().runOnContext(v -> end.run());
        }
        awaitSize(log, 8);
        assertEquals(List.of("launch 3", "launch 4", "launch 5"), log.subList(5, 8));
        for (int i = 0; i < 3; i++) {
            Runnable end = pendingEnds.remove(0);
            eventLoop.context().runOnContext(v -> end.run());
        }
        assertEquals(6, drained.get(10, TimeUnit.SECONDS));
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

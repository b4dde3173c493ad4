package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shutdown hook shared by {@code run}/{@code generate} and {@code generate --continuous}. */
class RunDriverStopHookTest {
    @Test
    @Timeout(30) // waits at most the given time: a hook that waited on would run into this
    void hookStopsTheRunWaitsAtMostTheGivenTimeAndCanBeRemoved() throws Exception {
        AtomicInteger stops = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = RunDriver.addStopHook("test-stop-hook", new BoundedStop("capstream test", stops::incrementAndGet,
                done, Duration.ofMillis(300), BoundedStop.LATCH, null, () -> null));
        assertEquals("test-stop-hook", hook.getName());
        long t = System.nanoTime();
        hook.run(); // as the JVM would on SIGINT; done is never counted down
        long ms = (System.nanoTime() - t) / 1_000_000;
        assertEquals(1, stops.get());
        assertTrue(ms >= 250, "waited the given time (a latch's timed await returns no earlier): " + ms + " ms");
        RunDriver.removeStopHook(hook);
        assertFalse(Runtime.getRuntime().removeShutdownHook(hook), "already removed");
        RunDriver.removeStopHook(hook); // harmless twice
    }

    @Test
    @Timeout(20) // the hook would wait 30 s if it did not see that the run had finished
    void hookReturnsAsSoonAsTheRunHasFinished() {
        CountDownLatch done = new CountDownLatch(0);
        Thread hook = RunDriver.addStopHook("test-stop-hook-2", new BoundedStop("capstream test", () -> { }, done,
                Duration.ofSeconds(30), BoundedStop.LATCH, null, () -> null));
        hook.run();
        RunDriver.removeStopHook(hook);
    }
}

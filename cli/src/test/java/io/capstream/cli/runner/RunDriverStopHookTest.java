package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shutdown hook shared by {@code run}/{@code generate} and {@code generate --continuous}. */
class RunDriverStopHookTest {
    @Test
    void hookStopsTheRunWaitsAtMostTheGivenTimeAndCanBeRemoved() throws Exception {
        AtomicInteger stops = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = RunDriver.addStopHook("test-stop-hook", stops::incrementAndGet, done, Duration.ofMillis(300));
        assertEquals("test-stop-hook", hook.getName());
        long t = System.nanoTime();
        hook.run(); // as the JVM would on SIGINT; done is never counted down
        long ms = (System.nanoTime() - t) / 1_000_000;
        assertEquals(1, stops.get());
        assertTrue(ms >= 250 && ms < 5_000, "waited about the given time: " + ms + " ms");
        RunDriver.removeStopHook(hook);
        assertFalse(Runtime.getRuntime().removeShutdownHook(hook), "already removed");
        RunDriver.removeStopHook(hook); // harmless twice
    }

    @Test
    void hookReturnsAsSoonAsTheRunHasFinished() {
        CountDownLatch done = new CountDownLatch(0);
        Thread hook = RunDriver.addStopHook("test-stop-hook-2", () -> { }, done, Duration.ofSeconds(30));
        long t = System.nanoTime();
        hook.run();
        assertTrue((System.nanoTime() - t) / 1_000_000 < 5_000);
        RunDriver.removeStopHook(hook);
    }
}

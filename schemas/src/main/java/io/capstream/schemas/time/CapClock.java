package io.capstream.schemas.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * capstream's one clock for every wait, poll, timeout and deadline, and for the wall-clock stamps of events: the
 * JDK's {@link InstantSource} (wall time, {@link #instant()} and {@link #millis()}, epoch ms) with a monotonic
 * reading ({@link #nanoTime()}) and a {@link #sleep} that waits on this clock. Code takes a {@code CapClock} (default
 * {@link #system()}) rather than reading {@link System#currentTimeMillis()} or {@link System#nanoTime()}, so that a
 * test can move the time by hand (the schemas test-jar's {@code ManualCapClock}) instead of waiting for it.
 *
 * <p>Not for the per-chunk timestamps of a stream's measurements: those stay on {@link System#nanoTime()} directly
 * (the hot path, and what the reports' clock row names). Implementations are thread-safe.
 */
public interface CapClock extends InstantSource {
    /**
     * @return the monotonic time, ns, on an arbitrary origin (as {@link System#nanoTime()}: only differences mean
     *         anything, and only between readings of the same clock)
     */
    long nanoTime();

    /**
     * Waits on this clock: the system clock sleeps the thread; a manual clock moves its time forward instead.
     *
     * @param duration how long, not negative; zero returns at once
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    void sleep(Duration duration) throws InterruptedException;

    /** @return the system clock: {@link System#currentTimeMillis()}'s wall time, {@link System#nanoTime()} */
    static CapClock system() {
        return SystemCapClock.INSTANCE;
    }
}

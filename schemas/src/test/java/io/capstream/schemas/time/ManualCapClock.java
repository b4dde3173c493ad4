package io.capstream.schemas.time;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link CapClock} for tests: time moves only by {@link #advance} (or a {@link #sleep}, which advances by the
 * duration asked for and records it), wall and monotonic time together. Thread-safe.
 */
public final class ManualCapClock implements CapClock {
    private Instant wall;
    private long nanos;
    private final List<Duration> sleeps = new ArrayList<>();
    private volatile Consumer<Duration> onSleep = d -> { };

    /** A clock at 2026-12-01T12:00:00Z, monotonic 1,000 s. */
    public ManualCapClock() {
        this(Instant.parse("2026-12-01T12:00:00Z"));
    }

    /** @param start the wall time to start at; not null */
    public ManualCapClock(Instant start) {
        this(start, 1_000_000_000_000L);
    }

    /**
     * @param start      the wall time to start at; not null
     * @param startNanos the monotonic time to start at, ns (e.g. {@link System#nanoTime()}, for code that compares it
     *                   with the stamps of real requests)
     */
    public ManualCapClock(Instant start, long startNanos) {
        this.wall = start;
        this.nanos = startNanos;
    }

    @Override
    public synchronized Instant instant() {
        return wall;
    }

    @Override
    public synchronized long nanoTime() {
        return nanos;
    }

    /**
     * Moves wall and monotonic time forward.
     *
     * @param d how far, not negative
     * @return this
     */
    public ManualCapClock advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("time goes forward, not by " + d);
        }
        synchronized (this) {
            wall = wall.plus(d);
            nanos += d.toNanos();
        }
        return this;
    }

    /**
     * Moves the time forward by {@code duration} at once, records the sleep, then runs the {@link #onSleep} hook.
     */
    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted before a sleep of " + duration);
        }
        synchronized (this) {
            sleeps.add(duration);
        }
        advance(duration);
        onSleep.accept(duration);
    }

    /**
     * @param hook run after each {@link #sleep} (e.g. to change what a polled fake returns); not null
     * @return this
     */
    public ManualCapClock onSleep(Consumer<Duration> hook) {
        this.onSleep = hook;
        return this;
    }

    /** @return every sleep asked for so far, in order */
    public synchronized List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}

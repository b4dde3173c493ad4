package io.capstream.schemas.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** {@link CapClock#system()}: the JDK's UTC system clock, {@link System#nanoTime()} and {@link Thread#sleep}. */
final class SystemCapClock implements CapClock {
    static final SystemCapClock INSTANCE = new SystemCapClock();
    private static final Clock WALL = Clock.systemUTC();

    private SystemCapClock() {
    }

    @Override
    public Instant instant() {
        return WALL.instant();
    }

    @Override
    public long millis() {
        return WALL.millis();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("negative sleep: " + duration);
        }
        if (!duration.isZero()) {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        }
    }

    @Override
    public String toString() {
        return "CapClock.system()";
    }
}

package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An {@link ArrivalClock} for tests: time moves only by {@link #advanceTo}, which runs the timers
 * that are due by then on their contexts. Records every timer's delay. Thread-safe.
 */
final class ManualClock implements ArrivalClock {
    private record Timer(long id, long dueNs, Context context, Runnable task) {
    }

    private final List<Timer> pending = new ArrayList<>();
    private final List<Long> delaysMs = new ArrayList<>();
    private long nowNs;
    private long nextId;

    /** @param startNs the initial time, ns */
    ManualClock(long startNs) {
        this.nowNs = startNs;
    }

    @Override
    public synchronized long nanoTime() {
        return nowNs;
    }

    @Override
    public synchronized long setTimer(Context context, long delayMs, Runnable task) {
        delaysMs.add(delayMs);
        Timer t = new Timer(nextId++, nowNs + TimeUnit.MILLISECONDS.toNanos(delayMs), context, task);
        pending.add(t);
        return t.id();
    }

    @Override
    public synchronized void cancelTimer(Context context, long timerId) {
        pending.removeIf(t -> t.id() == timerId);
    }

    /**
     * Sets the time and runs (on their contexts) the timers due at or before it.
     *
     * @param ns new time, ns; not before the current time
     */
    void advanceTo(long ns) {
        List<Timer> due = new ArrayList<>();
        synchronized (this) {
            assertTrue(ns >= nowNs, "time goes forward");
            nowNs = ns;
            pending.removeIf(t -> {
                if (t.dueNs() <= ns) {
                    due.add(t);
                    return true;
                }
                return false;
            });
        }
        for (Timer t : due) {
            t.context().runOnContext(v -> t.task().run());
        }
    }

    /** @return the delays of every timer set so far, ms, in order */
    synchronized List<Long> delaysMs() {
        return List.copyOf(delaysMs);
    }

    /** @return timers set and neither fired nor cancelled */
    synchronized int pendingTimers() {
        return pending.size();
    }

    /** @return when the earliest pending timer is due, ns, or -1 when none is */
    synchronized long nextDueNs() {
        return pending.stream().mapToLong(Timer::dueNs).min().orElse(-1);
    }

    /**
     * Waits (up to 10 s of real time) until {@code count} timers have been set in total.
     *
     * @param count timers set so far to wait for
     */
    void awaitTimersSet(int count) {
        EventLoopFixture.awaitUntil(() -> {
            synchronized (this) {
                return delaysMs.size() >= count;
            }
        });
    }
}

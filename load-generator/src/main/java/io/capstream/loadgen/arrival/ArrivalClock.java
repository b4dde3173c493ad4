package io.capstream.loadgen.arrival;

import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;

/**
 * Time source and timers of the arrival drivers: {@link #of} the run's {@link CapClock} in a run (its monotonic
 * time and Vert.x timers), a manual clock in unit tests, so that a schedule, a deadline or a ramp-up can
 * be checked without real waiting. Implementations are thread-safe.
 */
public interface ArrivalClock {
    /** {@link CapClock#system()}'s monotonic time and the context's Vert.x timers. */
    ArrivalClock SYSTEM = of(CapClock.system());

    /**
     * @param clock the time source (the run's); not null
     * @return an arrival clock with {@code clock}'s monotonic time and the context's Vert.x timers
     */
    static ArrivalClock of(CapClock clock) {
        return new ArrivalClock() {
        @Override
        public long nanoTime() {
            return clock.nanoTime();
        }

        @Override
        public long setTimer(Context context, long delayMs, Runnable task) {
            return context.owner().setTimer(delayMs, id -> task.run());
        }

        @Override
        public void cancelTimer(Context context, long timerId) {
            context.owner().cancelTimer(timerId);
        }
        };
    }

    /** @return the current time, ns, on the same scale as {@code System.nanoTime()} (the run's T0 and deadline) */
    long nanoTime();

    /**
     * Runs {@code task} once, about {@code delayMs} ms from now. Called on {@code context}; the task
     * runs on that same context.
     *
     * @param context the event-loop context to run the task on; not null
     * @param delayMs delay, ms, &gt;= 1
     * @param task    what to run; not null
     * @return the timer id, for {@link #cancelTimer}
     */
    long setTimer(Context context, long delayMs, Runnable task);

    /**
     * Cancels a timer that has not fired yet; does nothing when it has fired or was cancelled.
     *
     * @param context the context the timer was set on; not null
     * @param timerId id from {@link #setTimer}
     */
    void cancelTimer(Context context, long timerId);
}

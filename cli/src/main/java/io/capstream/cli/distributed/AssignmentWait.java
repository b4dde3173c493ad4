package io.capstream.cli.distributed;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The coordinator's bounded wait, before the plan is written, for Kafka's group assignment to give each of N
 * workers one share of the plan topic. It ends as soon as every share is held by its own worker; after
 * {@link #NO_WORKER_WAIT} when the workers' group has no member at all (no {@code capstream worker} runs on
 * this Kafka); and at its timeout otherwise. Clock and pause are given, so that tests drive it without waiting.
 * Not thread-safe.
 */
public final class AssignmentWait {
    /** How long an empty workers' group is waited for before the run ends: a worker just started joins within it. */
    public static final Duration NO_WORKER_WAIT = Duration.ofSeconds(5);
    /** Pause between two looks, ms. */
    static final long POLL_MS = 200;

    /** How the wait ended. */
    public enum Outcome {
        /** Each share is held by a worker of its own. */
        ONE_PER_WORKER,
        /** Some shares are held (or the group did not answer): the plan is written anyway. */
        PARTIAL,
        /** No worker holds a share: the group is empty, or none of the plan's partitions is assigned. */
        NO_WORKER,
        /** The run was asked to stop during the wait. */
        STOPPED
    }

    /**
     * @param outcome how it ended
     * @param last    the last status seen; null when Kafka never answered
     * @param waited  how long it waited
     */
    public record Result(Outcome outcome, ShareWatch.Status last, Duration waited) {
    }

    /** One look at the group; null when Kafka did not answer. */
    @FunctionalInterface
    public interface Look {
        /**
         * @return the status, or null
         * @throws InterruptedException when interrupted
         */
        ShareWatch.Status look() throws InterruptedException;
    }

    /** A pause of the given ms. */
    @FunctionalInterface
    public interface Pause {
        /**
         * @param ms how long
         * @throws InterruptedException when interrupted
         */
        void sleep(long ms) throws InterruptedException;
    }

    private final Duration timeout;
    private final LongSupplier nanoClock;
    private final Pause pause;

    /**
     * @param timeout   longest wait when the group has members, &gt;= {@link #NO_WORKER_WAIT}
     * @param nanoClock monotonic clock, ns ({@code System::nanoTime})
     * @param pause     the pause between looks ({@code Thread::sleep})
     */
    public AssignmentWait(Duration timeout, LongSupplier nanoClock, Pause pause) {
        this.timeout = timeout;
        this.nanoClock = nanoClock;
        this.pause = pause;
    }

    /**
     * @param look    a look at the group and the plan's partitions
     * @param stopped whether the run was asked to stop
     * @return how the wait ended
     * @throws InterruptedException when interrupted
     */
    public Result await(Look look, BooleanSupplier stopped) throws InterruptedException {
        long start = nanoClock.getAsLong();
        ShareWatch.Status last = null;
        while (true) {
            ShareWatch.Status s = look.look();
            last = s == null ? last : s;
            long waitedNs = nanoClock.getAsLong() - start;
            Duration waited = Duration.ofNanos(waitedNs);
            if (s != null && s.oneSharePerWorker()) {
                return new Result(Outcome.ONE_PER_WORKER, s, waited);
            }
            if (stopped.getAsBoolean()) {
                return new Result(Outcome.STOPPED, last, waited);
            }
            if (last != null && last.members() == 0 && waitedNs >= NO_WORKER_WAIT.toNanos()) {
                return new Result(Outcome.NO_WORKER, last, waited);
            }
            if (waitedNs >= timeout.toNanos()) {
                return new Result(last != null && last.assignedTo().isEmpty() ? Outcome.NO_WORKER : Outcome.PARTIAL,
                        last, waited);
            }
            pause.sleep(POLL_MS);
        }
    }
}

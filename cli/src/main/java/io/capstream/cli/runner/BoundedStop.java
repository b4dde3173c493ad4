package io.capstream.cli.runner;

import io.capstream.cli.signals.ForcedExit;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The body of a SIGINT/SIGTERM shutdown hook with a bound: asks the command to stop, then waits for it at most
 * {@code bound}. A stop that does not finish in time (e.g. a Kafka producer or Kafka Streams waiting for a broker that
 * has gone) no longer keeps the process alive: the hook prints one line saying what was left unflushed or uncommitted,
 * returns, and the JVM exits (a JVM halts once its hooks have returned, whatever other threads still run). While it
 * waits, a second Ctrl-C exits at once ({@link ForcedExit}): the stop's notice says so, and that exit's line says what
 * {@code unfinished} names.
 */
public final class BoundedStop implements Runnable {
    /** How the hook waits for the stop; tests inject one that answers at once. */
    @FunctionalInterface
    public interface Waiter {
        /**
         * @param done  counted down when the stop has finished
         * @param bound the longest wait
         * @return true when {@code done} was counted down within {@code bound}
         * @throws InterruptedException when interrupted
         */
        boolean await(CountDownLatch done, Duration bound) throws InterruptedException;
    }

    /** Waits on the latch itself (the real clock). */
    public static final Waiter LATCH = (done, bound) -> done.await(bound.toNanos(), TimeUnit.NANOSECONDS);

    private final String command;
    private final Runnable stop;
    private final CountDownLatch done;
    private final Duration bound;
    private final Waiter waiter;
    private final PrintStream err;
    private final Supplier<String> unfinished;

    /**
     * @param command    the prefix of the printed line, e.g. {@code capstream aggregate}; not null
     * @param stop       asks the command to stop (must not block for long); not null
     * @param done       counted down when the stop has finished; not null
     * @param bound      the longest wait for {@code done}; not null
     * @param waiter     how to wait ({@link #LATCH}); not null
     * @param err        where the stop notice goes (only when a signal started the stop: {@code <command>: stopping
     *                   (at most N s); press Ctrl-C again to exit at once}) and the line when the bound is hit; null:
     *                   nowhere (the command prints its own notice)
     * @param unfinished called when the bound is hit or a second Ctrl-C exits at once: what was not flushed or
     *                   committed; not null (may return null)
     */
    public BoundedStop(String command, Runnable stop, CountDownLatch done, Duration bound, Waiter waiter,
                       PrintStream err, Supplier<String> unfinished) {
        this.command = Objects.requireNonNull(command, "command");
        this.stop = Objects.requireNonNull(stop, "stop");
        this.done = Objects.requireNonNull(done, "done");
        this.bound = Objects.requireNonNull(bound, "bound");
        this.waiter = Objects.requireNonNull(waiter, "waiter");
        this.err = err;
        this.unfinished = Objects.requireNonNull(unfinished, "unfinished");
    }

    /** Stops, waits at most the bound, and prints one line when the bound was hit. */
    @Override
    public void run() {
        ForcedExit.stopping(command, unfinished);
        String hint = ForcedExit.hint();
        if (err != null && !hint.isEmpty()) {
            err.println(command + ": stopping (at most " + seconds(bound) + ")" + hint);
            err.flush();
        }
        stop.run();
        boolean finished;
        try {
            finished = waiter.await(done, bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished && err != null) {
            String what = unfinished.get();
            err.println(command + ": did not finish stopping within " + seconds(bound) + "; exiting without it"
                    + (what == null || what.isBlank() ? "" : ": " + what));
            err.flush();
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}

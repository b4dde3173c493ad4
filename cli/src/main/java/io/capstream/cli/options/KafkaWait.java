package io.capstream.cli.options;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Waits up to a given time for Kafka to answer (a long-running service such as {@code aggregate} may start before its
 * broker, or on a machine so loaded that the broker answers late): {@link KafkaReachability} checks of at most
 * {@link #STEP} each, one progress line after each unanswered check, and the one-line error when the wait is over or
 * the error is not one that waiting cures (a malformed address, a failed authentication).
 */
public final class KafkaWait {
    /** The longest single check; a progress line follows each one that got no answer. */
    public static final Duration STEP = Duration.ofSeconds(10);

    private final Function<Duration, KafkaReachability.Outcome> probe;
    private final LongSupplier nanoTime;
    private final PrintStream err;
    private final String command;

    /**
     * @param probe    one check with the given timeout ({@code t -> KafkaReachability.probe(props, t)}); not null
     * @param nanoTime the clock the wait is measured with ({@code System::nanoTime}); not null
     * @param err      where the progress lines go; not null
     * @param command  their prefix, e.g. {@code capstream aggregate}; not null
     */
    public KafkaWait(Function<Duration, KafkaReachability.Outcome> probe, LongSupplier nanoTime, PrintStream err,
                     String command) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.err = Objects.requireNonNull(err, "err");
        this.command = Objects.requireNonNull(command, "command");
    }

    /**
     * @param bootstrap the bootstrap servers (for the messages); not null
     * @param wait      how long to wait in all; positive
     * @param option    the option that sets {@code wait}, named in the progress lines, e.g. {@code --kafka-wait}
     * @return null when a broker answered, else the one-line error ({@code cannot reach Kafka at ...: no broker
     *         answered within <wait> s ...} when the wait ran out)
     */
    public String await(String bootstrap, Duration wait, String option) {
        long start = nanoTime.getAsLong();
        long end = start + wait.toNanos();
        while (true) {
            long left = end - nanoTime.getAsLong();
            Duration step = Duration.ofNanos(Math.max(1_000_000L, Math.min(left, STEP.toNanos())));
            KafkaReachability.Outcome o = probe.apply(step);
            if (o.error() == null) {
                return null;
            }
            if (!o.timedOut()) {
                return o.error();
            }
            long waited = nanoTime.getAsLong() - start;
            if (nanoTime.getAsLong() - end >= 0) {
                // the wait the user gave, waited in full: a last check that overran it on a busy machine does not
                // make "within 2 s" read "within 3 s"
                return KafkaReachability.message(bootstrap, KafkaReachability.noAnswer(wait));
            }
            err.printf("%s: waiting for Kafka at %s: no answer yet after %d s of %d s (%s)%n", command, bootstrap,
                    Duration.ofNanos(waited).toSeconds(), wait.toSeconds(), option);
            err.flush();
        }
    }
}

package io.capstream.cli.sweep;

import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.stack.LocalStack;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.SweepCurve;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** Where the sweep's curve comes from: a {@link SweepWaiter} attached when Kafka is up. Attach, then await, then close. */
final class CurveSource implements AutoCloseable {
    private final PrintStream err;
    private final String cmd;
    private volatile SweepWaiter waiter;
    private volatile String attachError;

    /**
     * @param err where a missing curve is reported
     * @param cmd the command's name for those lines ({@code capstream sweep})
     */
    CurveSource(PrintStream err, String cmd) {
        this.err = err;
        this.cmd = cmd;
    }

    /** Attaches the waiter; never throws (a failure is reported at the end). */
    void attach(LocalStack stack) {
        try {
            waiter = SweepWaiter.forSweeps(stack.kafka(), stack.schemaRegistryUrl(), stack.registryClient())
                    .failWhen(stack::aggregatorFailure);
        } catch (RuntimeException e) {
            attachError = RunDriver.describe(e);
        }
    }

    /**
     * @return the sweep's curve with every one of {@code runIds}, or empty after {@code timeout} (the reason printed)
     */
    Optional<SweepCurve> await(String sweepId, Set<String> runIds, Duration timeout, LocalStack stack) {
        SweepWaiter w = waiter;
        if (w == null) {
            err.println(cmd + ": cannot read " + Topics.SWEEPS + " for the sweep curve"
                    + (attachError == null ? "" : ": " + attachError));
            return Optional.empty();
        }
        Optional<SweepCurve> curve = w.await(sweepId, runIds, timeout);
        if (curve.isEmpty()) {
            err.println(cmd + ": no sweep curve for " + sweepId + " with all " + runIds.size()
                    + " step(s) arrived on " + Topics.SWEEPS + " within " + timeout.toSeconds()
                    + " s" + (stack.aggregatorFailure() == null ? "" : ": " + stack.aggregatorFailure()));
        }
        return curve;
    }

    @Override
    public void close() {
        SweepWaiter w = waiter;
        if (w != null) {
            w.close();
        }
    }
}

package io.capstream.loadgen.run;

/**
 * The run was asked to stop (SIGINT/SIGTERM, {@link RunControl#requestStop()}) before its T0, during
 * the warm-up: no timed request ran and no event was emitted, so there is no run and no report.
 * {@link LoadGenerator#run} fails with it.
 */
public final class StoppedBeforeStartException extends RuntimeException {
    /** Creates the exception (no stack trace: it is an outcome, not a bug). */
    public StoppedBeforeStartException() {
        super("stopped during the warm-up, before the first timed request: nothing was measured", null, false, false);
    }
}

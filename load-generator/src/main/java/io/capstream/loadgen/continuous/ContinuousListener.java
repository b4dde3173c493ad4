package io.capstream.loadgen.continuous;

import io.capstream.loadgen.run.RunOutcome;

/**
 * Callbacks of {@link ContinuousRunner}, called on the runner's thread (may block briefly).
 * Every method has an empty default.
 */
public interface ContinuousListener {
    /** Ignores everything. */
    ContinuousListener NONE = new ContinuousListener() {
    };

    /**
     * A run ended (normally or interrupted by {@link ContinuousRunner#stop()}) and its event sink was closed
     * (flushed, or given up after its timeout).
     *
     * @param iteration 0-based run number
     * @param outcome   what it did; {@code eventsUndelivered} counts the run's events that did not reach Kafka
     */
    default void onRunFinished(int iteration, RunOutcome outcome) {
    }

    /**
     * A run could not be carried out (not a usage error); the loop goes on.
     *
     * @param iteration 0-based run number
     * @param error     the error
     */
    default void onRunError(int iteration, Throwable error) {
    }
}

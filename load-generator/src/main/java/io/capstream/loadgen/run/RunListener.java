package io.capstream.loadgen.run;

import io.capstream.schemas.avro.RunEvent;

/**
 * Callbacks from a running {@link LoadGenerator}. They are called on Vert.x event-loop threads
 * (possibly several concurrently): implementations must be thread-safe, fast and must never block.
 * Every method has an empty default.
 */
public interface RunListener {
    /** A listener that ignores everything. */
    RunListener NONE = new RunListener() {
    };

    /**
     * The run is about to start its first request (RunStarted has been handed to the sink).
     *
     * @param runId the run id
     * @param plan  the resolved plan
     */
    default void onStarted(String runId, RunPlan plan) {
    }

    /**
     * A start-up step before T0 finished (warm-up), as one line for the console, e.g.
     * {@code "client warm-up: 3,250 loopback requests in 2.1 s (412 -> 61 us per request; the last 1,000 through the
     * run's driver)"}.
     *
     * @param line the message, without a prefix or line break
     */
    default void onNotice(String line) {
    }

    /**
     * A request ended (completed or failed).
     *
     * @param progress snapshot after that request
     */
    default void onProgress(RunProgress progress) {
    }

    /**
     * Every request has ended (the last one, or the run was stopped): the run now waits for the sink
     * to deliver its events ({@code RunFinished} follows). Called once, after the last
     * {@link #onProgress}, before {@link #onFinished}.
     *
     * @param requestsEnded requests that ended (completed + failed)
     */
    default void onAwaitingDelivery(int requestsEnded) {
    }

    /**
     * Every event handed to the sink, in the order it was handed (RunStarted, request events, RunFinished).
     *
     * @param event the event
     */
    default void onEvent(RunEvent event) {
    }

    /**
     * The run ended; called before the run's future completes.
     *
     * @param outcome the outcome
     */
    default void onFinished(RunOutcome outcome) {
    }
}

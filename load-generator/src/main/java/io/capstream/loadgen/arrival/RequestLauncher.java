package io.capstream.loadgen.arrival;

import io.vertx.core.Context;

/** Starts one planned request; implemented by the run, called by the arrival drivers. */
@FunctionalInterface
public interface RequestLauncher {
    /**
     * Starts request {@code index} on {@code context} and calls {@code onEnd} exactly once when it
     * ended (completed or failed), on any thread.
     *
     * @param index       request index, 0-based
     * @param scheduledNs scheduled start relative to the run's T0, ns
     * @param context     event-loop context that owns the request's connection
     * @param onEnd       called once when the request ended
     */
    void launch(int index, long scheduledNs, Context context, Runnable onEnd);
}

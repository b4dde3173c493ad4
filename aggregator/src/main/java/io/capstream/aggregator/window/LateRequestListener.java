package io.capstream.aggregator.window;

/**
 * Told of the requests the window step drops because their window had already closed (the Prometheus counter
 * {@code capstream_window_late_dropped_total}). Called on a stream thread, once per dropped request; may be
 * called again for the same request after a failure (exactly-once covers topics and stores, not this callback).
 */
@FunctionalInterface
public interface LateRequestListener {
    /** A listener that does nothing. */
    LateRequestListener NONE = (target, model, contextBucket) -> { };

    /**
     * @param target        the request's target; not null
     * @param model         its model; not null
     * @param contextBucket its context bucket label; not null
     */
    void lateDropped(String target, String model, String contextBucket);
}

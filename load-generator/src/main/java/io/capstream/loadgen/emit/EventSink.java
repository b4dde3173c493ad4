package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Where a run's events go (normally {@link KafkaEventSink}, topic {@code capstream.events}, key =
 * run id). Implementations are thread-safe and {@link #send} never blocks the caller (it is called
 * on Vert.x event loops); an event that cannot be delivered is counted in {@link #undelivered()},
 * never silently lost.
 */
public interface EventSink extends AutoCloseable {
    /**
     * Hands one event over for delivery. Never blocks; never throws for delivery problems (they are
     * counted instead).
     *
     * @param event the event; its {@code run_id} is the record key
     */
    void send(RunEvent event);

    /**
     * @return a future that completes once every event handed over so far has been acknowledged or
     *         has failed; its value is {@link #undelivered()} at that moment. It never blocks the caller.
     */
    CompletableFuture<Long> flush();

    /** @return events that could not be delivered so far (failed sends and events dropped from a full buffer) */
    long undelivered();

    /**
     * @return events handed to {@link #send} so far, delivered or not (dropped ones included); 0 for
     *         a sink that does not count them (the default)
     */
    default long handedOver() {
        return 0;
    }

    /**
     * @return events handed over that are neither acknowledged nor failed yet (held, queued or in
     *         flight to Kafka): what a flush still waits for; 0 by default (a sink that delivers at once)
     */
    default long pending() {
        return 0;
    }

    /**
     * Flushes what can be flushed within the timeout and releases resources. Blocks up to
     * {@code timeout}: do not call it on an event loop.
     *
     * @param timeout how long to wait for pending events
     * @return undelivered events in total, including those still pending when the timeout expired
     */
    long close(Duration timeout);

    /**
     * @return how events reach Kafka while the requests run: {@code "live"} (handed on as they come)
     *         or {@code "deferred"} (held until the run's first {@link #flush()}, see
     *         {@link DeferredEventSink}); recorded in the run's self-check
     */
    default String delivery() {
        return "live";
    }

    /** Closes with a 30 s timeout. */
    @Override
    default void close() {
        close(Duration.ofSeconds(30));
    }
}

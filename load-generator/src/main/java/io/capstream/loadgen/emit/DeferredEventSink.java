package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An {@link EventSink} that holds events in memory while the requests run and hands them to its
 * delegate only on {@link #flush()} (the generator flushes after its last request) or
 * {@link #close(Duration)}. With the broker and the aggregator in the same process
 * ({@code capstream run} on the embedded Kafka), this keeps their work (Avro encoding, produce,
 * log append, Kafka Streams processing) out of the measured window: they take no CPU from the
 * event loops that stamp chunks, nor from an engine on the same machine. An event costs a queue
 * node while it waits (a few hundred bytes; 100,000 requests stay well below 100 MB). Not for long
 * or continuous runs on a shared Kafka, where events should reach consumers as they happen and a
 * crash must not lose them.
 */
public final class DeferredEventSink implements EventSink {
    private final EventSink delegate;
    private final ConcurrentLinkedQueue<RunEvent> held = new ConcurrentLinkedQueue<>();

    /** @param delegate where the events go on flush (closed by {@link #close(Duration)}) */
    public DeferredEventSink(EventSink delegate) {
        this.delegate = delegate;
    }

    /** Holds the event; cheap and non-blocking. */
    @Override
    public void send(RunEvent event) {
        held.add(event);
    }

    /** Hands every held event to the delegate, in the order they were sent, then flushes it. */
    @Override
    public CompletableFuture<Long> flush() {
        release();
        return delegate.flush();
    }

    /** @return events held and not yet handed on (0 after a flush) */
    public int held() {
        return held.size();
    }

    @Override
    public long undelivered() {
        return delegate.undelivered();
    }

    /** @return events held here plus those handed to the delegate */
    @Override
    public long handedOver() {
        return held.size() + delegate.handedOver();
    }

    /** @return events held here plus those the delegate still waits for */
    @Override
    public long pending() {
        return held.size() + delegate.pending();
    }

    @Override
    public String delivery() {
        return "deferred";
    }

    /** Hands held events on, then closes the delegate within the timeout. */
    @Override
    public long close(Duration timeout) {
        release();
        return delegate.close(timeout);
    }

    private void release() {
        RunEvent e;
        while ((e = held.poll()) != null) {
            delegate.send(e);
        }
    }
}

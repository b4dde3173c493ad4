package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/** An {@link EventSink} that keeps every event in memory, in send order (tests, dry runs). Thread-safe. */
public final class InMemoryEventSink implements EventSink {
    private final ConcurrentLinkedQueue<RunEvent> events = new ConcurrentLinkedQueue<>();

    @Override
    public void send(RunEvent event) {
        events.add(event);
    }

    @Override
    public CompletableFuture<Long> flush() {
        return CompletableFuture.completedFuture(0L);
    }

    @Override
    public long undelivered() {
        return 0;
    }

    /** @return every event received (all are delivered at once) */
    @Override
    public long handedOver() {
        return events.size();
    }

    @Override
    public long close(Duration timeout) {
        return 0;
    }

    /** @return a snapshot of the events received so far, in send order */
    public List<RunEvent> events() {
        return new ArrayList<>(events);
    }

    /**
     * @param type payload class (RunStarted, RequestCompleted, ...)
     * @param <T>  the payload type
     * @return the payloads of that type received so far, in send order
     */
    public <T> List<T> payloads(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (RunEvent e : events()) {
            if (type.isInstance(e.getPayload())) {
                out.add(type.cast(e.getPayload()));
            }
        }
        return out;
    }
}

package io.capstream.loadgen.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeferredEventSinkTest {
    private static RunEvent event(String id) {
        return RunEvent.newBuilder().setRunId("r").setEventId(id).setWorkerId("w").setEmittedAtMs(0)
                .setPayload(Heartbeat.newBuilder().build()).build();
    }

    @Test
    void holdsEventsUntilFlushThenHandsThemOnInOrder() throws Exception {
        InMemoryEventSink inner = new InMemoryEventSink();
        DeferredEventSink sink = new DeferredEventSink(inner);
        sink.send(event("a"));
        sink.send(event("b"));
        assertEquals(0, inner.events().size());
        assertEquals(2, sink.held());
        assertEquals(2, sink.handedOver());
        assertEquals(2, sink.pending(), "held events are not delivered yet");
        assertEquals(0L, sink.flush().get());
        assertEquals(2, sink.handedOver());
        assertEquals(0, sink.pending());
        assertEquals(List.of("a", "b"), inner.events().stream().map(e -> e.getEventId().toString()).toList());
        assertEquals(0, sink.held());
        sink.send(event("c"));
        assertEquals(2, inner.events().size());
        sink.close(Duration.ofSeconds(1));
        assertEquals(3, inner.events().size(), "close hands on what is still held");
        assertEquals("deferred", sink.delivery());
        assertEquals("live", inner.delivery());
    }
}

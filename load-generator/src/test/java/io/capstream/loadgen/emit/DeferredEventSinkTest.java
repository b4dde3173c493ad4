package io.capstream.loadgen.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.time.ManualCapClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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

    @Test
    void aLateDelegateIsOpenedOnceAtTheFirstFlushOnAThreadOfItsOwn() throws Exception {
        InMemoryEventSink inner = new InMemoryEventSink();
        AtomicInteger opens = new AtomicInteger();
        AtomicReference<Thread> openedOn = new AtomicReference<>();
        DeferredEventSink sink = new DeferredEventSink(() -> {
            opens.incrementAndGet();
            openedOn.set(Thread.currentThread());
            return inner;
        });
        sink.send(event("a"));
        sink.send(event("b"));
        assertEquals(0, opens.get(), "nothing is opened while the requests run");
        assertEquals(2, sink.pending());
        assertEquals(0, sink.undelivered(), "held events are pending, not undelivered");
        assertEquals(0L, sink.flush().get(5, TimeUnit.SECONDS));
        assertEquals(1, opens.get());
        assertNotEquals(Thread.currentThread(), openedOn.get(), "the factory may block: not on the caller's thread");
        assertEquals("capstream-deferred-open", openedOn.get().getName());
        sink.send(event("c"));
        assertEquals(0L, sink.flush().get(5, TimeUnit.SECONDS));
        assertEquals(1, opens.get(), "opened once");
        assertEquals(List.of("a", "b", "c"), inner.events().stream().map(e -> e.getEventId().toString()).toList());
        assertEquals(0, sink.close(Duration.ofSeconds(1)));
        assertNull(sink.openError());
    }

    /** The progress line tells the embedded broker's start (the factory running) from the wait for Kafka's acks. */
    @Test
    void opensOnlyWhileItsFactoryRuns() throws Exception {
        InMemoryEventSink inner = new InMemoryEventSink();
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        DeferredEventSink sink = new DeferredEventSink(() -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inner;
        });
        sink.send(event("a"));
        assertThat(sink.opening()).as("before the first flush").isFalse();
        java.util.concurrent.CompletableFuture<Long> flushed = sink.flush();
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("the factory ran").isTrue();
        assertThat(sink.opening()).as("while the factory runs").isTrue();
        release.countDown();
        assertThat(flushed.get(10, TimeUnit.SECONDS)).as("undelivered after the flush").isZero();
        assertThat(sink.opening()).as("once opened").isFalse();
    }

    @Test
    void aDelegateThatCannotBeOpenedLeavesEveryHeldEventUndelivered() throws Exception {
        DeferredEventSink sink = new DeferredEventSink(() -> {
            throw new IllegalStateException("the embedded broker did not start");
        });
        sink.send(event("a"));
        sink.send(event("b"));
        assertEquals(2L, sink.flush().get(5, TimeUnit.SECONDS), "the flush completes, with both undelivered");
        assertEquals(2, sink.undelivered());
        assertEquals("the embedded broker did not start", sink.openError());
        sink.send(event("c"));
        assertEquals(3, sink.close(Duration.ofSeconds(1)));
    }

    @Test
    void aSinkThatHeldNothingNeverOpensItsDelegate() {
        AtomicInteger opens = new AtomicInteger();
        DeferredEventSink sink = new DeferredEventSink(() -> {
            opens.incrementAndGet();
            return new InMemoryEventSink();
        });
        assertEquals(0, sink.close(Duration.ofSeconds(1)));
        assertEquals(0, opens.get(), "e.g. a run stopped during its warm-up starts no broker");
    }

    @Test
    void theDelegateClosesInWhatTheOpeningLeftOfTheTimeout() {
        ManualCapClock clock = new ManualCapClock();
        List<Duration> closes = new java.util.concurrent.CopyOnWriteArrayList<>();
        InMemoryEventSink inner = new InMemoryEventSink();
        EventSink delegate = new EventSink() {
            @Override
            public void send(RunEvent event) {
                inner.send(event);
            }

            @Override
            public java.util.concurrent.CompletableFuture<Long> flush() {
                return inner.flush();
            }

            @Override
            public long undelivered() {
                return inner.undelivered();
            }

            @Override
            public long close(Duration timeout) {
                closes.add(timeout);
                return inner.close(timeout);
            }
        };
        // opening the delegate (e.g. starting a broker) takes 4 s on the clock
        DeferredEventSink sink = new DeferredEventSink(() -> {
            clock.advance(Duration.ofSeconds(4));
            return delegate;
        }, clock);
        sink.send(KafkaEventSinkTest.event("r", 1));
        assertThat(sink.close(Duration.ofSeconds(5))).as("undelivered").isZero();
        assertThat(closes).as("the delegate's close timeout: 5 s less the 4 s opening").containsExactly(Duration.ofSeconds(1));
        assertThat(inner.events()).as("the held event reached the delegate").hasSize(1);
    }
}

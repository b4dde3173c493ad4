package io.capstream.loadgen.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.time.ManualCapClock;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class KafkaEventSinkTest {
    static RunEvent event(String runId, int i) {
        return RunEvent.newBuilder().setRunId(runId).setEventId("e" + i).setWorkerId("w").setEmittedAtMs(i)
                .setPayload(Heartbeat.newBuilder().build()).build();
    }

    static MockProducer<String, RunEvent> mock(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), (t, v) -> new byte[] {1});
    }

    @Test
    void deliversEveryEventKeyedByRunId() throws Exception {
        MockProducer<String, RunEvent> p = mock(true);
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 100);
        for (int i = 0; i < 50; i++) {
            sink.send(event("run-" + (i % 3), i));
        }
        assertEquals(0L, sink.flush().get(10, TimeUnit.SECONDS));
        assertEquals(50, p.history().size());
        for (int i = 0; i < 50; i++) {
            ProducerRecord<String, RunEvent> r = p.history().get(i);
            assertEquals("run-" + (i % 3), r.key());
            assertEquals(Topics.EVENTS, r.topic());
            assertEquals("e" + i, r.value().getEventId(), "order is kept");
        }
        assertEquals(0, sink.close(Duration.ofSeconds(5)));
        assertTrue(p.closed());
    }

    @Test
    void countsWhatWasHandedOverAndWhatAwaitsAnAcknowledgement() throws Exception {
        MockProducer<String, RunEvent> p = mock(false);
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 100);
        assertEquals(0, sink.handedOver());
        assertEquals(0, sink.pending());
        for (int i = 0; i < 3; i++) {
            sink.send(event("r", i));
        }
        assertEquals(3, sink.handedOver());
        assertEquals(3, sink.pending(), "queued or sent, not yet acknowledged");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> p.history().size() == 3);
        assertTrue(p.completeNext());
        assertEquals(2, sink.pending());
        assertTrue(p.errorNext(new org.apache.kafka.common.errors.TimeoutException("expired")));
        assertEquals(1, sink.pending(), "a failed event no longer waits");
        assertEquals(1, sink.undelivered());
        assertTrue(p.completeNext());
        assertEquals(1L, sink.flush().get(10, TimeUnit.SECONDS));
        assertEquals(0, sink.pending());
        assertEquals(3, sink.handedOver());
        assertEquals(1, sink.close(Duration.ofSeconds(5)));
        sink.send(event("r", 9));
        assertEquals(4, sink.handedOver(), "a dropped event was handed over too");
        assertEquals(0, sink.pending());
    }

    @Test
    void eventsTheStoppedRegistryCannotEncodeAreUndeliveredNotClaimed() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        // the producer serializes inside send(): the registry is asked for the schema id there
        MockProducer<String, RunEvent> p = new MockProducer<>(true, null, new StringSerializer(),
                SpecificAvroSerde.forValue(RunEvent.class, "http://127.0.0.1:" + closedPort,
                        new RegistryClientConfig(Duration.ofMillis(500), 0, Duration.ofMillis(1), null, null)).serializer());
        EventSink sink = new DeferredEventSink(new KafkaEventSink(p, Topics.EVENTS, 100));
        for (int i = 0; i < 3; i++) {
            sink.send(event("r", i));
        }
        assertEquals(3L, sink.flush().get(10, TimeUnit.SECONDS), "every event failed to serialize");
        assertEquals(3, sink.handedOver());
        assertEquals(0, sink.pending());
        assertEquals(0, p.history().size(), "nothing reached the producer's log");
        assertEquals(3, sink.close(Duration.ofSeconds(5)), "close counts them as undelivered too");
    }

    @Test
    void failedDeliveriesAreCounted() throws Exception {
        MockProducer<String, RunEvent> p = mock(false);
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 100);
        sink.send(event("r", 0));
        sink.send(event("r", 1));
        sink.send(event("r", 2));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> p.history().size() == 3);
        assertTrue(p.errorNext(new org.apache.kafka.common.errors.TimeoutException("expired")));
        assertEquals(1L, sink.flush().get(10, TimeUnit.SECONDS));
        assertEquals(1, sink.undelivered());
        assertThat(sink.lastError()).contains("expired");
        assertEquals(1, sink.close(Duration.ofSeconds(5)));
    }

    @Test
    @Timeout(60)
    void sendNeverBlocksAndOverflowIsCountedNotLost() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        MockProducer<String, RunEvent> p = new MockProducer<>(true, null, new StringSerializer(), (t, v) -> new byte[] {1}) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<String, RunEvent> record, Callback callback) {
                entered.countDown();
                try {
                    release.await(); // a producer stuck on metadata, like an unreachable broker
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.send(record, callback);
            }
        };
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 10);
        sink.send(event("r", 0));
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        // send() must not block: the producer stays stuck until after this loop (release below), so a send() that
        // waited for it would never return and the test's timeout would fail it (no wall-clock bound here)
        for (int i = 1; i < 100; i++) {
            sink.send(event("r", i));
        }
        // one event is inside the stuck send(), ten wait in the buffer, the rest are dropped
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> sink.undelivered() >= 89);
        assertEquals(89, sink.undelivered());
        release.countDown();
        assertEquals(89L, sink.flush().get(10, TimeUnit.SECONDS));
        assertEquals(11, p.history().size());
        assertEquals(89, sink.close(Duration.ofSeconds(5)));
    }

    @Test
    @Timeout(30)
    void closeTimeoutCountsPendingEvents() {
        CountDownLatch never = new CountDownLatch(1);
        MockProducer<String, RunEvent> p = new MockProducer<>(true, null, new StringSerializer(), (t, v) -> new byte[] {1}) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<String, RunEvent> record, Callback callback) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    callback.onCompletion(null, new org.apache.kafka.common.errors.InterruptException(e));
                    return null;
                }
                return super.send(record, callback);
            }
        };
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 100);
        for (int i = 0; i < 5; i++) {
            sink.send(event("r", i));
        }
        long undelivered = sink.close(Duration.ofMillis(300)); // a close that waited on would run into @Timeout
        assertEquals(5, undelivered);
        sink.send(event("r", 99));
        assertTrue(sink.undelivered() >= 1, "events after close are counted");
    }

    @Test
    void unreachableBrokerIsCountedByTheRealProducer() throws Exception {
        // a send blocked on the producer's metadata would take max.block.ms (2 s); a queued one microseconds: the
        // bound between them leaves a loaded machine's stalls room
        KafkaSinkConfig c = KafkaSinkConfig.of("127.0.0.1:1", "mock://kafka-sink-test")
                .withClientProperties(Map.of("max.block.ms", "2000")).withDeliveryTimeoutMs(600);
        KafkaEventSink sink = new KafkaEventSink(c);
        long t = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            sink.send(event("r", i));
        }
        long sendMs = (System.nanoTime() - t) / 1_000_000;
        assertTrue(sendMs < 1000, "send() returns at once, not after max.block.ms 2,000 ms: " + sendMs + " ms");
        assertEquals(3L, sink.flush().get(30, TimeUnit.SECONDS));
        assertEquals(3, sink.close(Duration.ofSeconds(5)));
    }

    @Test
    void anOutageCostsAboutOneDeliveryTimeoutNotOneBlockPerEvent() throws Exception {
        KafkaSinkConfig c = KafkaSinkConfig.of("127.0.0.1:1", "mock://kafka-sink-test")
                .withClientProperties(Map.of("max.block.ms", "300")).withDeliveryTimeoutMs(1000);
        KafkaEventSink sink = new KafkaEventSink(c);
        for (int i = 0; i < 50; i++) {
            sink.send(event("r", i));
        }
        long t = System.nanoTime();
        assertEquals(50L, sink.flush().get(30, TimeUnit.SECONDS));
        long ms = (System.nanoTime() - t) / 1_000_000;
        assertTrue(ms < 7_500, "50 events x 300 ms blocking would be 15 s; took " + ms + " ms");
        assertThat(sink.lastError()).contains("Timeout");
        assertEquals(50, sink.close(Duration.ofSeconds(5)));
    }

    @Test
    @Timeout(30)
    void anEventWaitsForADownBrokerOnlyItsDeliveryTimeoutOnTheClock() throws Exception {
        ManualCapClock clock = new ManualCapClock();
        java.util.concurrent.atomic.AtomicInteger sends = new java.util.concurrent.atomic.AtomicInteger();
        // every send blocks 10 s (max.block.ms) on the clock, then finds no metadata
        MockProducer<String, RunEvent> p = new MockProducer<>(true, null, new StringSerializer(), (t, v) -> new byte[] {1}) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<String, RunEvent> record, Callback callback) {
                sends.incrementAndGet();
                clock.advance(Duration.ofSeconds(10));
                throw new org.apache.kafka.common.errors.TimeoutException("Topic not present in metadata after 10000 ms");
            }
        };
        KafkaEventSink sink = new KafkaEventSink(p, Topics.EVENTS, 100, 25_000, clock);
        sink.send(event("r", 1));
        sink.flush().get(10, TimeUnit.SECONDS);
        // tries at 0 s, 10 s and 20 s are young enough; at 30 s the event is older than the 25 s delivery timeout
        assertThat(sends.get()).as("sends of the one event before its delivery timeout").isEqualTo(3);
        assertThat(sink.undelivered()).as("undelivered").isEqualTo(1);
        assertThat(sink.lastError()).as("last error").contains("Topic not present in metadata");
        sink.close(Duration.ofSeconds(5));
    }
}

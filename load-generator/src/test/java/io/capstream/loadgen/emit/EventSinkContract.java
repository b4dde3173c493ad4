package io.capstream.loadgen.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link EventSink} promises (see its Javadoc), run against each implementation by a
 * subclass: every event handed to {@link EventSink#send} reaches the destination in send order per
 * run id, or is counted in {@link EventSink#undelivered()}; {@link EventSink#flush()} completes with
 * the undelivered count once nothing is pending; {@link EventSink#close(Duration)} delivers what was
 * not flushed, returns the undelivered total and may be called twice; a send after close never
 * throws and is accounted for; concurrent senders lose nothing. The accounting identity, checked
 * once a flush or close has settled every event: {@code handedOver() == delivered + undelivered() + pending()}.
 *
 * <p>A subclass makes the sinks and reports what reached their destination; JUnit makes a new
 * instance per test, so a subclass may keep the current destination in a field.
 */
abstract class EventSinkContract {
    /** How long a flush or close may take, s. */
    static final int TIMEOUT_S = 10;

    /** @return a new sink whose destination accepts every event; not null */
    protected abstract EventSink newSink();

    /**
     * @return the events that reached the destination of the sink made last by {@link #newSink()},
     *         in arrival order; not null
     */
    protected abstract List<RunEvent> delivered();

    /**
     * @return a new sink whose destination refuses every event, or null when the implementation has
     *         no way to fail (then the cases that need one are skipped)
     */
    protected abstract EventSink newUndeliverableSink();

    static RunEvent event(String runId, int i) {
        return RunEvent.newBuilder().setRunId(runId).setEventId(runId + "/" + i).setWorkerId("w").setEmittedAtMs(i)
                .setPayload(Heartbeat.newBuilder().build()).build();
    }

    /** @return the event ids of {@code events} grouped by run id, each list in arrival order */
    static Map<String, List<String>> idsByRun(List<RunEvent> events) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (RunEvent e : events) {
            out.computeIfAbsent(e.getRunId(), r -> new ArrayList<>()).add(e.getEventId());
        }
        return out;
    }

    static List<String> expectedIds(String runId, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(runId + "/" + i);
        }
        return out;
    }

    /** Sends {@code n} events alternating between runs a and b: a/0, b/1, a/2, ... */
    static void sendAlternating(EventSink sink, int n) {
        for (int i = 0; i < n; i++) {
            sink.send(event(i % 2 == 0 ? "a" : "b", i));
        }
    }

    private static List<String> everyOther(String runId, int start, int n) {
        List<String> out = new ArrayList<>();
        for (int i = start; i < n; i += 2) {
            out.add(runId + "/" + i);
        }
        return out;
    }

    private void assertAccounted(EventSink sink) {
        assertEquals(sink.handedOver(), delivered().size() + sink.undelivered() + sink.pending(),
                "handedOver == delivered + undelivered + pending (delivered " + delivered().size() + ", undelivered "
                        + sink.undelivered() + ", pending " + sink.pending() + ")");
    }

    @Test
    void anEmptySinkFlushesAtOnceAndClosesWithNothingUndelivered() throws Exception {
        EventSink sink = newSink();
        assertEquals(0L, sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS));
        assertEquals(0, sink.handedOver());
        assertEquals(0, sink.pending());
        assertEquals(0, sink.undelivered());
        assertThat(Set.of("live", "deferred")).as(sink.delivery()).contains(sink.delivery());
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
        assertEquals(List.of(), delivered());
    }

    @Test
    void aFlushCompletesOnceEveryEventArrivedInSendOrderPerRun() throws Exception {
        EventSink sink = newSink();
        sendAlternating(sink, 20);
        assertEquals(20, sink.handedOver());
        assertEquals(0L, sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS), "the flush's value: nothing undelivered");
        assertEquals(0, sink.pending(), "a completed flush leaves nothing pending");
        assertEquals(0, sink.undelivered());
        assertEquals(Map.of("a", everyOther("a", 0, 20), "b", everyOther("b", 1, 20)), idsByRun(delivered()));
        assertAccounted(sink);
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
        assertEquals(20, delivered().size(), "close after a flush delivers nothing twice");
    }

    @Test
    void closeDeliversWhatWasNotFlushed() {
        EventSink sink = newSink();
        sendAlternating(sink, 10);
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
        assertEquals(Map.of("a", everyOther("a", 0, 10), "b", everyOther("b", 1, 10)), idsByRun(delivered()));
        assertEquals(0, sink.pending());
        assertAccounted(sink);
    }

    @Test
    void closeIsIdempotent() {
        EventSink sink = newSink();
        sendAlternating(sink, 4);
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)), "a second close returns the same total");
        assertEquals(4, delivered().size(), "and delivers nothing twice");
        assertEquals(4, sink.handedOver());
    }

    @Test
    void aSendAfterCloseNeverThrowsAndIsAccountedFor() throws Exception {
        EventSink sink = newSink();
        sendAlternating(sink, 4);
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
        sink.send(event("late", 0));
        long undelivered = sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(sink.undelivered(), undelivered, "the flush's value is undelivered() at that moment");
        assertEquals(5, sink.handedOver());
        assertEquals(0, sink.pending(), "a closed sink waits for nothing after a flush");
        assertEquals(5, delivered().size() + sink.undelivered(), "the late event was delivered or counted, not lost");
        assertAccounted(sink);
    }

    @Test
    void concurrentSendersLoseNothingAndKeepTheirOrder() throws Exception {
        EventSink sink = newSink();
        int threads = 4;
        int perThread = 250;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String run = "run-" + t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    sink.send(event(run, i));
                }
            }, "contract-sender-" + t);
            th.start();
            senders.add(th);
        }
        start.countDown();
        for (Thread th : senders) {
            th.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
        }
        assertEquals(0L, sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS));
        assertEquals(threads * perThread, sink.handedOver());
        Map<String, List<String>> byRun = idsByRun(delivered());
        assertEquals(threads, byRun.size());
        for (int t = 0; t < threads; t++) {
            assertEquals(expectedIds("run-" + t, 0, perThread), byRun.get("run-" + t), "order of run-" + t);
        }
        assertEquals(0, sink.close(Duration.ofSeconds(TIMEOUT_S)));
    }

    @Test
    void undeliverableEventsAreCountedByFlushAndClose() throws Exception {
        EventSink sink = newUndeliverableSink();
        assumeTrue(sink != null, "this sink cannot fail to deliver");
        sendAlternating(sink, 3);
        assertEquals(3L, sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS), "the flush completes, counting all three");
        assertEquals(3, sink.undelivered());
        assertEquals(3, sink.handedOver());
        assertEquals(List.of(), delivered());
        assertEquals(3, sink.close(Duration.ofSeconds(TIMEOUT_S)), "close counts them too");
    }

    @Test
    void undeliverableEventsAreNoLongerPendingAfterTheFlush() throws Exception {
        EventSink sink = newUndeliverableSink();
        assumeTrue(sink != null, "this sink cannot fail to deliver");
        sendAlternating(sink, 3);
        sink.flush().get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(0, sink.pending(), "failed events are neither acknowledged nor waiting: not pending");
        assertAccounted(sink);
        sink.close(Duration.ofSeconds(TIMEOUT_S));
    }
}

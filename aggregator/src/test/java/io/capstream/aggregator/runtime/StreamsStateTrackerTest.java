package io.capstream.aggregator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

/** The start-up, failure and stop logic of {@link StreamsStateTracker}, fed with transitions instead of a broker. */
class StreamsStateTrackerTest {
    private static final Duration NONE = Duration.ZERO;

    @Test
    void runningSettlesTheStartUpWithoutAFailure() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("report aggregator", null);
        t.onChange(State.REBALANCING, State.CREATED);
        assertNull(t.awaitSettled(NONE), "rebalancing has not settled the start-up");

        t.onChange(State.RUNNING, State.REBALANCING);
        assertEquals(State.RUNNING, t.awaitSettled(NONE));
        assertNull(t.failure());
        assertFalse(t.awaitStopped(NONE));
    }

    @Test
    void aFailureWhileStartingSettlesItAndNamesTheLatestState() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("report aggregator", null);
        t.onChange(State.REBALANCING, State.CREATED);
        t.onChange(State.PENDING_ERROR, State.REBALANCING);
        assertEquals(State.PENDING_ERROR, t.awaitSettled(NONE));
        assertEquals("the report aggregator stopped (Kafka Streams state PENDING_ERROR, see the log above)", t.failure());
        assertFalse(t.awaitStopped(NONE), "pending error is not stopped yet");

        t.onChange(State.ERROR, State.PENDING_ERROR);
        assertEquals("the report aggregator stopped (Kafka Streams state ERROR, see the log above)", t.failure());
        assertTrue(t.awaitStopped(NONE));
        assertEquals(State.PENDING_ERROR, t.awaitSettled(NONE), "the first settling state stays");
    }

    @Test
    void aShutdownBeforeRunningSettlesItWithoutAFailure() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("x", null);
        t.onChange(State.PENDING_SHUTDOWN, State.REBALANCING);
        assertEquals(State.PENDING_SHUTDOWN, t.awaitSettled(NONE));
        assertNull(t.failure());
        assertFalse(t.awaitStopped(NONE));
        t.onChange(State.NOT_RUNNING, State.PENDING_SHUTDOWN);
        assertTrue(t.awaitStopped(NONE));
    }

    @Test
    void aFailureAfterRunningKeepsTheStartUpButSetsTheFailure() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("aggregator", null);
        t.onChange(State.RUNNING, State.REBALANCING);
        t.onChange(State.REBALANCING, State.RUNNING);
        t.onChange(State.PENDING_ERROR, State.REBALANCING);
        t.onChange(State.ERROR, State.PENDING_ERROR);
        assertEquals(State.RUNNING, t.awaitSettled(NONE));
        assertEquals("the aggregator stopped (Kafka Streams state ERROR, see the log above)", t.failure());
        assertTrue(t.awaitStopped(NONE));
    }

    @Test
    void closingCountsAsStopped() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("x", null);
        t.onChange(State.RUNNING, State.REBALANCING);
        assertFalse(t.awaitStopped(NONE));
        t.markClosed();
        assertTrue(t.awaitStopped(NONE));
        assertNull(t.failure());
    }

    @Test
    void theOwnersListenerSeesEveryTransitionInOrder() {
        List<String> seen = new ArrayList<>();
        StreamsStateTracker t = new StreamsStateTracker("x", (now, before) -> seen.add(before + "->" + now));
        t.onChange(State.REBALANCING, State.CREATED);
        t.onChange(State.RUNNING, State.REBALANCING);
        assertEquals(List.of("CREATED->REBALANCING", "REBALANCING->RUNNING"), seen);
    }

    @Test
    void aWaiterIsWokenByATransitionOnAnotherThread() throws Exception {
        StreamsStateTracker t = new StreamsStateTracker("x", null);
        CompletableFuture<State> settled = CompletableFuture.supplyAsync(() -> {
            try {
                return t.awaitSettled(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        t.onChange(State.RUNNING, State.REBALANCING);
        assertEquals(State.RUNNING, settled.get());
    }
}

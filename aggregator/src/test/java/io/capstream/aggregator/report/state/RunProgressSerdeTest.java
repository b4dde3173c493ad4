package io.capstream.aggregator.report.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class RunProgressSerdeTest {
    private final RunProgressSerde serde = new RunProgressSerde();

    private RunProgress roundTrip(RunProgress p) {
        return serde.deserializer().deserialize("t", serde.serializer().serialize("t", p));
    }

    @Test
    void emptyProgressRoundTrips() {
        RunProgress back = roundTrip(RunProgress.empty());
        assertSameProgress(RunProgress.empty(), back);
        assertNull(back.startedEventId());
        assertEquals(-1, back.requests());
        assertEquals(1, back.expectedWorkers());
        assertEquals(0, back.received());
        assertFalse(back.started());
        assertFalse(back.published());
    }

    @Test
    void everyFieldRoundTrips() {
        RunProgress p = RunProgress.empty();
        p.start("évènement-1 ✓", 1000, 3, true);
        for (int i : new int[] {0, 1, 63, 64, 999}) {
            p.markRequest(i);
        }
        p.finish(400, false);
        p.finish(Integer.MAX_VALUE, true);
        p.duplicate();
        p.duplicate();
        p.touch(1_767_225_600_123L);
        RunProgress back = roundTrip(p);
        assertSameProgress(p, back);
        assertEquals("évènement-1 ✓", back.startedEventId());
        assertEquals(1000, back.requests());
        assertEquals(3, back.expectedWorkers());
        assertEquals(5, back.received());
        assertEquals(2, back.finishedWorkers());
        assertEquals(400L + Integer.MAX_VALUE, back.sentTotal);
        assertTrue(back.timeBounded);
        assertTrue(back.interrupted);
        assertEquals(2, back.duplicates());
        assertEquals(1_767_225_600_123L, back.lastEventMs());
        assertEquals(0, back.publishedAtMs());
    }

    @Test
    void capturedBytesDecodeToTheProgressTheyWereWrittenFrom() {
        RunProgress p = RunProgress.empty();
        p.start("run-1-start", 70, 2, false);
        for (int i : new int[] {0, 5, 69}) {
            p.markRequest(i);
        }
        p.finish(35, false);
        p.duplicate();
        p.touch(1_767_225_600_123L);
        byte[] current = serde.serializer().serialize("t", p);
        byte[] captured = io.capstream.aggregator.serde.SerdeFixtures.captured("run-progress.bin", current);
        assertSameProgress(p, serde.deserializer().deserialize("t", captured));
        org.assertj.core.api.Assertions.assertThat(current)
                .as("today's encoding of the progress store (a changelog of the previous version must restore)")
                .isEqualTo(captured);
    }

    @Test
    void unsentTurnsRoundTripAsVersion3AndCountAsArrived() {
        RunProgress p = RunProgress.empty();
        p.start("conv-start", 9, 1, false);
        for (int i : new int[] {0, 3, 4, 5, 6, 7}) {
            p.markRequest(i);
        }
        p.markUnsent(0, 2);  // conversation c0 ended after turn 1: 1 and 2 never come
        p.markUnsent(7, 5);  // capped at the plan: only 8
        p.finish(6, false);
        byte[] current = serde.serializer().serialize("t", p);
        org.assertj.core.api.Assertions.assertThat(current[0]).as("version byte with unsent indices")
                .isEqualTo((byte) 3);
        RunProgress back = serde.deserializer().deserialize("t", current);
        assertSameProgress(p, back);
        org.assertj.core.api.Assertions.assertThat(back.unsent().stream().boxed().toList()).as("unsent indices")
                .containsExactly(1, 2, 8);
        org.assertj.core.api.Assertions.assertThat(back.ready()).as("ready with every index sent or unsent").isTrue();
        byte[] captured = io.capstream.aggregator.serde.SerdeFixtures.captured("run-progress-v3.bin", current);
        org.assertj.core.api.Assertions.assertThat(current).as("today's version-3 encoding").isEqualTo(captured);

        p.markPublished(1_767_225_601_000L);
        org.assertj.core.api.Assertions.assertThat(serde.serializer().serialize("t", p)[0])
                .as("a published marker forgets the unsent indices: version 2").isEqualTo((byte) 2);
    }

    @Test
    void unsentIndicesDoNotMakeARunReadyBeforeTheOthersArrive() {
        RunProgress p = RunProgress.empty();
        p.start("conv-start", 6, 1, false);
        p.finish(3, false);
        p.markRequest(0);
        p.markUnsent(0, 2);
        p.markRequest(3);
        p.markRequest(5);
        org.assertj.core.api.Assertions.assertThat(p.ready()).as("ready while request 4 is outstanding").isFalse();
        p.markRequest(4);
        org.assertj.core.api.Assertions.assertThat(p.ready()).as("ready once request 4 arrived").isTrue();
    }

    @Test
    void emptyEventIdIsNotNull() {
        RunProgress p = RunProgress.empty();
        p.start("", 0, 1, false);
        RunProgress back = roundTrip(p);
        assertEquals("", back.startedEventId());
        assertTrue(back.started());
    }

    @Test
    void largeRunAndPublishedMarkerRoundTrip() {
        RunProgress p = RunProgress.empty();
        p.start("e", 2_000_000, 1, false);
        for (int i = 0; i < 2_000_000; i += (i % 3 == 0 ? 1 : 7)) {
            p.markRequest(i);
        }
        RunProgress back = roundTrip(p);
        assertSameProgress(p, back);
        assertEquals(p.received(), back.received());

        p.markPublished(1_767_225_601_000L);
        RunProgress marker = roundTrip(p);
        assertSameProgress(p, marker);
        assertTrue(marker.published());
        assertEquals(0, marker.received());
        assertEquals(1_767_225_601_000L, marker.publishedAtMs());
        // the marker keeps no request bits: version, id, scalars and an empty word array
        assertEquals(1 + 4 + 1 + 4 + 4 + 1 + 4 + 8 + 1 + 4 + 8 + 8 + 4, serde.serializer().serialize("t", p).length);
    }

    @Test
    void nullIsNullBothWaysAndUnknownVersionsAreRejected() {
        assertNull(serde.serializer().serialize("t", null));
        assertNull(serde.deserializer().deserialize("t", null));
        byte[] bytes = serde.serializer().serialize("t", RunProgress.empty());
        assertEquals(2, bytes[0]);
        bytes[0] = 1;
        assertEquals("unknown RunProgress version 1", assertThrows(SerializationException.class,
                () -> serde.deserializer().deserialize("t", bytes)).getMessage());
    }

    private static void assertSameProgress(RunProgress expected, RunProgress actual) {
        assertEquals(expected.startedEventId, actual.startedEventId);
        assertEquals(expected.requests, actual.requests);
        assertEquals(expected.expectedWorkers, actual.expectedWorkers);
        assertEquals(expected.timeBounded, actual.timeBounded);
        assertEquals(expected.seen, actual.seen);
        assertEquals(expected.unsent, actual.unsent);
        assertEquals(expected.finishedWorkers, actual.finishedWorkers);
        assertEquals(expected.sentTotal, actual.sentTotal);
        assertEquals(expected.interrupted, actual.interrupted);
        assertEquals(expected.duplicates, actual.duplicates);
        assertEquals(expected.lastEventMs, actual.lastEventMs);
        assertEquals(expected.publishedAtMs, actual.publishedAtMs);
    }
}

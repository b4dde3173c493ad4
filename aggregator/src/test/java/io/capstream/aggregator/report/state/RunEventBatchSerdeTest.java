package io.capstream.aggregator.report.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.RandomRecords;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The events store's batch value ({@link RunEventBatchSerde}, issue 31): layout, round trip and refusals. */
class RunEventBatchSerdeTest {
    private final RunEventBatchSerde serde = new RunEventBatchSerde();
    private final RunEventBinarySerde single = new RunEventBinarySerde();

    @Test
    void eventsOfEveryPayloadTypeRoundTripInOrder() {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 80, 7);
        byte[] bytes = serde.serializer().serialize("t", events);
        assertThat(serde.deserializer().deserialize("t", bytes)).as("events read back from the batch")
                .containsExactlyElementsOf(events);
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", List.of(events.get(0)))))
                .as("a batch of one event read back").containsExactly(events.get(0));
    }

    @Test
    void theLayoutIsAFormatByteThenEachEventsLengthAndItsSingleEventBytes() {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 2, 11);
        byte[] first = single.serializer().serialize("t", events.get(0));
        byte[] second = single.serializer().serialize("t", events.get(1));
        byte[] expected = ByteBuffer.allocate(1 + 4 + first.length + 4 + second.length).put(RunEventBatchSerde.FORMAT)
                .putInt(first.length).put(first).putInt(second.length).put(second).array();
        assertThat(serde.serializer().serialize("t", events)).as("batch bytes of two events").isEqualTo(expected);
        assertThat(RunEventBatchSerde.encodeEncoded(List.of(first, second))).as("batch of two encoded events")
                .isEqualTo(expected);
    }

    @Test
    void nullAndEmptyAreNoRecord() {
        assertThat(serde.serializer().serialize("t", null)).as("bytes of null").isNull();
        assertThat(serde.serializer().serialize("t", List.of())).as("bytes of no events").isNull();
        assertThat(serde.deserializer().deserialize("t", null)).as("events of null").isNull();
    }

    @Test
    void anotherFormatOrCutBytesAreRefused() {
        byte[] bytes = serde.serializer().serialize("t", RandomRecords.of(RunEvent.class, 3, 13));
        byte[] otherFormat = bytes.clone();
        otherFormat[0] = 2;
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", otherFormat)).as("format byte 2")
                .isInstanceOf(SerializationException.class).hasMessageContaining("format byte 2");
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", Arrays.copyOf(bytes, bytes.length - 1)))
                .as("a batch cut short in its last event").isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", Arrays.copyOf(bytes, 3)))
                .as("a batch cut short in its first length").isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[0])).as("no bytes")
                .isInstanceOf(SerializationException.class);
    }
}

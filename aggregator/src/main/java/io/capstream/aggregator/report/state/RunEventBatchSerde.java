package io.capstream.aggregator.report.state;

import io.capstream.schemas.avro.RunEvent;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value of one event batch of the run-events store ({@link StateKeys#batch}, issue 31): a run's events in the
 * order they were stored. Layout: one format byte ({@value #FORMAT}), then for each event its length in bytes (a
 * 4-byte big-endian int) and its {@link RunEventBinarySerde} bytes. Each event keeps its own bytes, so an event
 * written before a schema change is read through {@link RunEventBinarySerde}'s earlier writer schemas as a single
 * stored event is. An empty list and null both map to null (no record). Thread-safe.
 */
public final class RunEventBatchSerde implements Serde<List<RunEvent>> {
    /** The format byte that starts every batch this version writes. */
    public static final byte FORMAT = 1;
    /** Bytes of the format byte. */
    private static final int FORMAT_BYTES = 1;
    /** Bytes of each event's length prefix. */
    public static final int LENGTH_BYTES = Integer.BYTES;

    private final Serializer<RunEvent> eventSerializer;
    private final Deserializer<RunEvent> eventDeserializer;

    /** A serde whose events are encoded with a {@link RunEventBinarySerde}. */
    public RunEventBatchSerde() {
        RunEventBinarySerde events = new RunEventBinarySerde();
        this.eventSerializer = events.serializer();
        this.eventDeserializer = events.deserializer();
    }

    /**
     * @param event an event; not null
     * @return its {@link RunEventBinarySerde} bytes, as a batch holds them ({@link #encodeEncoded})
     */
    public byte[] encodeEvent(RunEvent event) {
        return eventSerializer.serialize(null, event);
    }

    /**
     * @param encoded events' {@link #encodeEvent} bytes, in order; not null, not empty
     * @return the batch's bytes: {@value #FORMAT}, then each event's length and bytes
     */
    public static byte[] encodeEncoded(List<byte[]> encoded) {
        int size = FORMAT_BYTES;
        for (byte[] e : encoded) {
            size += LENGTH_BYTES + e.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(FORMAT);
        for (byte[] e : encoded) {
            out.putInt(e.length).put(e);
        }
        return out.array();
    }

    @Override
    public Serializer<List<RunEvent>> serializer() {
        return (topic, events) -> {
            if (events == null || events.isEmpty()) {
                return null;
            }
            List<byte[]> encoded = new ArrayList<>(events.size());
            for (RunEvent e : events) {
                encoded.add(encodeEvent(e));
            }
            return encodeEncoded(encoded);
        };
    }

    @Override
    public Deserializer<List<RunEvent>> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length < FORMAT_BYTES || bytes[0] != FORMAT) {
                throw new SerializationException("not an event batch of format " + FORMAT + ": "
                        + (bytes.length == 0 ? "empty" : "format byte " + bytes[0]));
            }
            ByteBuffer in = ByteBuffer.wrap(bytes, FORMAT_BYTES, bytes.length - FORMAT_BYTES);
            List<RunEvent> events = new ArrayList<>();
            try {
                while (in.hasRemaining()) {
                    int length = in.getInt();
                    if (length < 0 || length > in.remaining()) {
                        throw new SerializationException("event batch: event " + events.size() + " of " + length
                                + " bytes, " + in.remaining() + " left");
                    }
                    int from = in.position();
                    events.add(eventDeserializer.deserialize(topic, Arrays.copyOfRange(bytes, from, from + length)));
                    in.position(from + length);
                }
            } catch (BufferUnderflowException e) {
                throw new SerializationException("event batch: truncated length after event " + events.size(), e);
            }
            return events;
        };
    }
}

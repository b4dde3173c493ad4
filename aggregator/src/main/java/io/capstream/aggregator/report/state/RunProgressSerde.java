package io.capstream.aggregator.report.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Fixed binary layout of {@link RunProgress} for the state store (version byte 1, then the fields
 * big-endian; the started event id as a length-prefixed UTF-8 string, length -1 for null).
 * Stateless and thread-safe.
 */
public final class RunProgressSerde implements Serde<RunProgress> {
    private static final byte VERSION = 1;

    @Override
    public Serializer<RunProgress> serializer() {
        return (topic, p) -> {
            if (p == null) {
                return null;
            }
            byte[] id = p.startedEventId() == null ? null : p.startedEventId().getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(1 + 4 + (id == null ? 0 : id.length) + 4 + 4 + 1 + 4 + 4 + 8 + 1 + 4
                    + 8 + 8);
            b.put(VERSION);
            b.putInt(id == null ? -1 : id.length);
            if (id != null) {
                b.put(id);
            }
            b.putInt(p.requests()).putInt(p.expectedWorkers()).put((byte) (p.timeBounded() ? 1 : 0))
                    .putInt(p.received()).putInt(p.finishedWorkers()).putLong(p.sentTotal())
                    .put((byte) (p.interrupted() ? 1 : 0)).putInt(p.duplicates()).putLong(p.lastEventMs())
                    .putLong(p.publishedAtMs());
            return b.array();
        };
    }

    @Override
    public Deserializer<RunProgress> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte version = b.get();
            if (version != VERSION) {
                throw new SerializationException("unknown RunProgress version " + version);
            }
            int len = b.getInt();
            String id = null;
            if (len >= 0) {
                byte[] raw = new byte[len];
                b.get(raw);
                id = new String(raw, StandardCharsets.UTF_8);
            }
            return new RunProgress(id, b.getInt(), b.getInt(), b.get() != 0, b.getInt(), b.getInt(), b.getLong(),
                    b.get() != 0, b.getInt(), b.getLong(), b.getLong());
        };
    }
}

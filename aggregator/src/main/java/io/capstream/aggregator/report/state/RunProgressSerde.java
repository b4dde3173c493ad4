package io.capstream.aggregator.report.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary layout of {@link RunProgress} for the state store: version byte 2, the started event id
 * (length-prefixed UTF-8, length -1 for null), the scalar fields big-endian, then the bit set of
 * received request indices as a length-prefixed array of longs. Stateless and thread-safe.
 */
public final class RunProgressSerde implements Serde<RunProgress> {
    private static final byte VERSION = 2;

    @Override
    public Serializer<RunProgress> serializer() {
        return (topic, p) -> {
            if (p == null) {
                return null;
            }
            byte[] id = p.startedEventId == null ? null : p.startedEventId.getBytes(StandardCharsets.UTF_8);
            long[] bits = p.seen.toLongArray();
            ByteBuffer b = ByteBuffer.allocate(1 + 4 + (id == null ? 0 : id.length) + 4 + 4 + 1 + 4 + 8 + 1 + 4 + 8
                    + 8 + 4 + 8 * bits.length);
            b.put(VERSION);
            b.putInt(id == null ? -1 : id.length);
            if (id != null) {
                b.put(id);
            }
            b.putInt(p.requests).putInt(p.expectedWorkers).put((byte) (p.timeBounded ? 1 : 0))
                    .putInt(p.finishedWorkers).putLong(p.sentTotal).put((byte) (p.interrupted ? 1 : 0))
                    .putInt(p.duplicates).putLong(p.lastEventMs).putLong(p.publishedAtMs);
            b.putInt(bits.length);
            for (long word : bits) {
                b.putLong(word);
            }
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
            int requests = b.getInt();
            int workers = b.getInt();
            boolean bounded = b.get() != 0;
            int finished = b.getInt();
            long sent = b.getLong();
            boolean interrupted = b.get() != 0;
            int duplicates = b.getInt();
            long last = b.getLong();
            long published = b.getLong();
            long[] words = new long[b.getInt()];
            for (int i = 0; i < words.length; i++) {
                words[i] = b.getLong();
            }
            RunProgress p = new RunProgress(BitSet.valueOf(words));
            p.startedEventId = id;
            p.requests = requests;
            p.expectedWorkers = workers;
            p.timeBounded = bounded;
            p.finishedWorkers = finished;
            p.sentTotal = sent;
            p.interrupted = interrupted;
            p.duplicates = duplicates;
            p.lastEventMs = last;
            p.publishedAtMs = published;
            return p;
        };
    }
}

package io.capstream.aggregator.report.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary layout of {@link RunProgress} for the state store: a version byte, the started event id
 * (length-prefixed UTF-8, length -1 for null), the scalar fields big-endian, then the bit set of
 * received request indices as a length-prefixed array of longs. Version 2 ends there; version 3 adds the bit set
 * of unsent indices (conversations that ended early, issue 29) in the same form. A progress without unsent
 * indices is written as version 2, byte for byte as before (so single-turn runs' state stays readable by the
 * previous version); one with unsent indices as version 3. Both are read. Stateless and thread-safe.
 */
public final class RunProgressSerde implements Serde<RunProgress> {
    private static final byte VERSION = 3;
    /** The layout without the unsent bit set. */
    private static final byte VERSION_2 = 2;

    @Override
    public Serializer<RunProgress> serializer() {
        return (topic, p) -> {
            if (p == null) {
                return null;
            }
            byte[] id = p.startedEventId == null ? null : p.startedEventId.getBytes(StandardCharsets.UTF_8);
            long[] bits = p.seen.toLongArray();
            long[] unsent = p.unsent.toLongArray();
            boolean v3 = unsent.length > 0;
            ByteBuffer b = ByteBuffer.allocate(1 + 4 + (id == null ? 0 : id.length) + 4 + 4 + 1 + 4 + 8 + 1 + 4 + 8
                    + 8 + 4 + 8 * bits.length + (v3 ? 4 + 8 * unsent.length : 0));
            b.put(v3 ? VERSION : VERSION_2);
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
            if (v3) {
                b.putInt(unsent.length);
                for (long word : unsent) {
                    b.putLong(word);
                }
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
            if (version != VERSION && version != VERSION_2) {
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
            BitSet seen = bits(b);
            BitSet unsent = version == VERSION_2 ? new BitSet() : bits(b);
            RunProgress p = new RunProgress(seen, unsent);
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

    /** Reads a length-prefixed array of longs as a bit set. */
    private static BitSet bits(ByteBuffer b) {
        long[] words = new long[b.getInt()];
        for (int i = 0; i < words.length; i++) {
            words[i] = b.getLong();
        }
        return BitSet.valueOf(words);
    }
}

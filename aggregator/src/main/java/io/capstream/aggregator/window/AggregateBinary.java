package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Issue 31: the state record of {@link WindowAggregateSerde} version {@value WindowAggregateSerde#VERSION}
 * ({@link WindowAggregateSerde#SCHEMA}) written and read by hand, in Avro's binary encoding, byte for byte what
 * Avro's generic datum writer gives for it: without a generic record, boxed bucket counts, maps with {@code Utf8} keys
 * and intermediate byte arrays per aggregate (a window aggregate is encoded once per commit when it changed, and
 * once per partial aggregate of the re-keying step; decoded once per partial: a tenth of the window topology's
 * stream-thread time through Avro's generic writer and reader).
 *
 * <p>Avro's binary encoding (Avro specification, "Binary Encoding"): a long is zig-zag encoded, 7 bits a byte, least
 * significant first; a double 8 bytes little-endian; bytes and strings a long length then the bytes (UTF-8); a map
 * blocks of a long item count, each item its key (a string) and value, ended by a block of count 0 (a negative count
 * is followed by the block's size in bytes); a record its fields in schema order. Written: one block per non-empty
 * map, as Avro's encoder does; read: any blocks. Stateless; every call makes its own buffers.
 */
final class AggregateBinary {
    private static final Quantity[] QUANTITIES = Quantity.values();
    private static final LatencyMeasure[] MEASURES = LatencyMeasure.values();
    /** Map keys as Avro writes them: a long length and the UTF-8 bytes of the enum constant's name. */
    private static final byte[][] QUANTITY_KEYS = keys(QUANTITIES);
    private static final byte[][] MEASURE_KEYS = keys(MEASURES);

    private AggregateBinary() {
    }

    private static byte[][] keys(Enum<?>[] values) {
        byte[][] keys = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            Bytes b = new Bytes(16);
            b.string(values[i].name().getBytes(StandardCharsets.UTF_8));
            keys[i] = b.toArray();
        }
        return keys;
    }

    /**
     * Writes the version byte and the state record after {@code prefix} (e.g. the repartition value's first bytes).
     *
     * @param prefix  bytes written first; not null
     * @param version the version byte
     * @param a       the aggregate; not null
     * @return {@code prefix}, the version byte and the record
     */
    static byte[] encode(byte[] prefix, byte version, WindowAggregate a) {
        Bytes out = new Bytes(512);
        out.put(prefix, 0, prefix.length);
        out.put(version);
        out.putDouble(a.relativeAccuracy());
        out.putLong(a.completed());
        out.putLong(a.failed());
        out.putLong(a.promptTokens());
        out.putLong(a.outputTokens());
        out.putLong(a.goodRequests());
        Map<String, Long> failures = a.failuresByType();
        if (!failures.isEmpty()) {
            out.putLong(failures.size());
            failures.forEach((type, n) -> {
                out.string(type.getBytes(StandardCharsets.UTF_8));
                out.putLong(n);
            });
        }
        out.putLong(0);
        out.putLong(QUANTITIES.length);
        GrowingByteArrayOutput sketch = GrowingByteArrayOutput.withInitialCapacity(256);
        for (Quantity q : QUANTITIES) {
            byte[] key = QUANTITY_KEYS[q.ordinal()];
            out.put(key, 0, key.length);
            sketch.clear();
            try {
                a.sketch(q).encode(sketch, false); // as Sketches.encode
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode DDSketch", e);
            }
            out.putLong(sketch.numWrittenBytes());
            out.put(sketch.backingArray(), 0, sketch.numWrittenBytes());
        }
        out.putLong(0);
        out.putLong(a.cancelled());
        int present = 0;
        for (LatencyMeasure m : MEASURES) {
            if (a.histogram(m).count() > 0) {
                present++;
            }
        }
        if (present > 0) {
            out.putLong(present);
            for (LatencyMeasure m : MEASURES) {
                BucketCounts h = a.histogram(m);
                if (h.count() > 0) {
                    byte[] key = MEASURE_KEYS[m.ordinal()];
                    out.put(key, 0, key.length);
                    long[] counts = h.counts();
                    out.putLong(counts.length);
                    for (long c : counts) {
                        out.putLong(c);
                    }
                    out.putLong(0);
                    out.putLong(h.sumNs());
                }
            }
        }
        out.putLong(0);
        return out.toArray();
    }

    /**
     * Reads the state record of version {@value WindowAggregateSerde#VERSION}.
     *
     * @param data   holds the record; not null
     * @param offset where the record begins (after the version byte)
     * @return the aggregate
     * @throws IllegalArgumentException       for a length or count out of range, an unknown quantity or measure name,
     *                                        a wrong number of bucket counts, or trailing bytes
     * @throws ArrayIndexOutOfBoundsException when the record is truncated
     * @throws UncheckedIOException           when a sketch's encoding is not valid
     */
    static WindowAggregate decode(byte[] data, int offset) {
        Cursor in = new Cursor(data, offset);
        double accuracy = in.getDouble();
        long completed = in.getLong();
        long failed = in.getLong();
        long prompt = in.getLong();
        long output = in.getLong();
        long good = in.getLong();
        Map<String, Long> failures = new TreeMap<>();
        for (long n = in.block(); n > 0; n = in.block()) {
            for (long i = 0; i < n; i++) {
                String type = in.string();
                failures.put(type, in.getLong());
            }
        }
        Map<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);
        for (long n = in.block(); n > 0; n = in.block()) {
            for (long i = 0; i < n; i++) {
                Quantity q = Quantity.valueOf(in.string());
                int len = in.length();
                sketches.put(q, Sketches.decode(data, in.take(len), len));
            }
        }
        long cancelled = in.getLong();
        Map<LatencyMeasure, BucketCounts> histograms = new EnumMap<>(LatencyMeasure.class);
        for (long n = in.block(); n > 0; n = in.block()) {
            for (long i = 0; i < n; i++) {
                LatencyMeasure m = LatencyMeasure.valueOf(in.string());
                long[] counts = new long[BucketCounts.BUCKETS];
                int k = 0;
                for (long c = in.block(); c > 0; c = in.block()) {
                    for (long j = 0; j < c; j++) {
                        if (k == counts.length) {
                            throw new IllegalArgumentException("more than " + counts.length + " bucket counts");
                        }
                        counts[k++] = in.getLong();
                    }
                }
                if (k != counts.length) {
                    throw new IllegalArgumentException("expected " + counts.length + " bucket counts, got " + k);
                }
                histograms.put(m, new BucketCounts(counts, in.getLong()));
            }
        }
        if (in.pos != data.length) {
            throw new IllegalArgumentException((data.length - in.pos) + " trailing bytes after WindowAggregate");
        }
        return new WindowAggregate(accuracy, completed, failed, cancelled, prompt, output, good, failures, sketches,
                histograms);
    }

    /** A growing byte array with Avro's binary encoding of longs, doubles and strings. */
    private static final class Bytes {
        private byte[] buf;
        private int size;

        Bytes(int capacity) {
            buf = new byte[capacity];
        }

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void put(byte b) {
            ensure(1);
            buf[size++] = b;
        }

        void put(byte[] b, int offset, int length) {
            ensure(length);
            System.arraycopy(b, offset, buf, size, length);
            size += length;
        }

        void putDouble(double d) {
            ensure(8);
            long v = Double.doubleToRawLongBits(d);
            for (int i = 0; i < 8; i++) {
                buf[size++] = (byte) (v >>> (8 * i));
            }
        }

        void putLong(long v) {
            ensure(10);
            long u = (v << 1) ^ (v >> 63);
            while ((u & ~0x7FL) != 0) {
                buf[size++] = (byte) ((u & 0x7F) | 0x80);
                u >>>= 7;
            }
            buf[size++] = (byte) u;
        }

        void string(byte[] utf8) {
            putLong(utf8.length);
            put(utf8, 0, utf8.length);
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, size);
        }
    }

    /** Reads Avro's binary encoding from a position on. */
    private static final class Cursor {
        private final byte[] data;
        private int pos;

        Cursor(byte[] data, int pos) {
            this.data = data;
            this.pos = pos;
        }

        double getDouble() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (long) (data[pos++] & 0xFF) << (8 * i);
            }
            return Double.longBitsToDouble(v);
        }

        long getLong() {
            long u = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                int x = data[pos++] & 0xFF;
                u |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return (u >>> 1) ^ -(u & 1);
                }
            }
            throw new IllegalArgumentException("long longer than 10 bytes");
        }

        /** @return a map's or array's next block's item count (0: the end); a negative count's byte size skipped */
        long block() {
            long n = getLong();
            if (n < 0) {
                getLong(); // the block's size in bytes
                n = -n;
            }
            if (n > data.length - pos) {
                throw new IllegalArgumentException("block of " + n + " items, " + (data.length - pos) + " bytes left");
            }
            return n;
        }

        /** @return a length: a long in 0 .. the bytes left */
        int length() {
            long n = getLong();
            if (n < 0 || n > data.length - pos) {
                throw new IllegalArgumentException("length " + n + " out of range, " + (data.length - pos) + " bytes left");
            }
            return (int) n;
        }

        String string() {
            int n = length();
            return new String(data, take(n), n, StandardCharsets.UTF_8);
        }

        /** @return the position of the next {@code n} bytes (checked by {@link #length}), skipped */
        int take(int n) {
            int at = pos;
            pos += n;
            return at;
        }
    }
}

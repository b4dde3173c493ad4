package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Issue 31: the state record of {@link WindowAggregateSerde} version {@value WindowAggregateSerde#VERSION}
 * ({@link WindowAggregateSerde#SCHEMA}) written and read field by field through Avro's own binary
 * {@link BinaryEncoder} and {@link BinaryDecoder}, byte for byte what Avro's generic datum writer gives for it:
 * without a generic record, boxed bucket counts, maps with {@code Utf8} keys and intermediate byte arrays per
 * aggregate (a window aggregate is encoded once per commit when it changed, and once per partial aggregate of the
 * re-keying step; decoded once per partial: a tenth of the window topology's stream-thread time through Avro's
 * generic writer and reader).
 *
 * <p>Avro's binary encoding (Avro specification, "Binary Encoding"), done by the encoder and decoder: a long is
 * zig-zag encoded, 7 bits a byte, least significant first; a double 8 bytes little-endian; bytes and strings a long
 * length then the bytes (UTF-8); a map or array blocks of a long item count, each item (a map's: its string key and
 * value), ended by a block of count 0 (a negative count is followed by the block's size in bytes); a record its fields
 * in schema order. Written in the calls Avro's generic writer makes (map start, item count, items, map end: one block
 * per non-empty map); read: any blocks. Stateless; every call makes its own stream, encoder and decoder.
 */
final class AggregateBinary {
    private static final Quantity[] QUANTITIES = Quantity.values();
    private static final LatencyMeasure[] MEASURES = LatencyMeasure.values();
    /** Encoder buffer, bytes: a window aggregate's record is 0.3 to 1.4 KB; longer ones are flushed in pieces. */
    private static final int BUFFER_BYTES = 512;

    private AggregateBinary() {
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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        bytes.write(prefix, 0, prefix.length);
        bytes.write(version);
        BinaryEncoder out = new EncoderFactory().configureBufferSize(BUFFER_BYTES).binaryEncoder(bytes, null);
        try {
            write(a, out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode WindowAggregate", e); // not from a byte array stream
        }
        return bytes.toByteArray();
    }

    private static void write(WindowAggregate a, BinaryEncoder out) throws IOException {
        out.writeDouble(a.relativeAccuracy());
        out.writeLong(a.completed());
        out.writeLong(a.failed());
        out.writeLong(a.promptTokens());
        out.writeLong(a.outputTokens());
        out.writeLong(a.goodRequests());
        Map<String, Long> failures = a.failuresByType();
        out.writeMapStart();
        out.setItemCount(failures.size());
        for (Map.Entry<String, Long> f : failures.entrySet()) {
            out.startItem();
            out.writeString(f.getKey());
            out.writeLong(f.getValue());
        }
        out.writeMapEnd();
        out.writeMapStart();
        out.setItemCount(QUANTITIES.length);
        GrowingByteArrayOutput sketch = GrowingByteArrayOutput.withInitialCapacity(256);
        for (Quantity q : QUANTITIES) {
            out.startItem();
            out.writeString(q.name());
            sketch.clear();
            a.sketch(q).encode(sketch, false); // as Sketches.encode
            out.writeBytes(sketch.backingArray(), 0, sketch.numWrittenBytes());
        }
        out.writeMapEnd();
        out.writeLong(a.cancelled());
        int present = 0;
        for (LatencyMeasure m : MEASURES) {
            if (a.histogram(m).count() > 0) {
                present++;
            }
        }
        out.writeMapStart();
        out.setItemCount(present);
        for (LatencyMeasure m : MEASURES) {
            BucketCounts h = a.histogram(m);
            if (h.count() > 0) {
                out.startItem();
                out.writeString(m.name());
                long[] counts = h.counts();
                out.writeArrayStart();
                out.setItemCount(counts.length);
                for (long c : counts) {
                    out.startItem();
                    out.writeLong(c);
                }
                out.writeArrayEnd();
                out.writeLong(h.sumNs());
            }
        }
        out.writeMapEnd();
    }

    /**
     * Reads the state record of version {@value WindowAggregateSerde#VERSION} where it lies in {@code data} (no copy
     * of the record; each sketch's bytes are read into one buffer reused for the record's sketches).
     *
     * @param data   holds the record, up to its end; not null
     * @param offset where the record begins (after the version byte)
     * @return the aggregate
     * @throws java.io.EOFException           when the record is truncated
     * @throws IOException                    for a malformed long
     * @throws org.apache.avro.AvroRuntimeException for a negative or too large length
     * @throws IllegalArgumentException       for an unknown quantity or measure name, a wrong number of bucket counts,
     *                                        or trailing bytes
     * @throws UncheckedIOException           when a sketch's encoding is not valid
     */
    static WindowAggregate decode(byte[] data, int offset) throws IOException {
        BinaryDecoder in = DecoderFactory.get().binaryDecoder(data, offset, data.length - offset, null);
        double accuracy = in.readDouble();
        long completed = in.readLong();
        long failed = in.readLong();
        long prompt = in.readLong();
        long output = in.readLong();
        long good = in.readLong();
        Map<String, Long> failures = new TreeMap<>();
        for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
            for (long i = 0; i < n; i++) {
                String type = in.readString();
                failures.put(type, in.readLong());
            }
        }
        Map<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);
        ByteBuffer sketch = null;
        for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
            for (long i = 0; i < n; i++) {
                Quantity q = Quantity.valueOf(in.readString());
                sketch = in.readBytes(sketch);
                sketches.put(q, Sketches.decode(sketch.array(), sketch.arrayOffset() + sketch.position(),
                        sketch.remaining()));
            }
        }
        long cancelled = in.readLong();
        Map<LatencyMeasure, BucketCounts> histograms = new EnumMap<>(LatencyMeasure.class);
        for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
            for (long i = 0; i < n; i++) {
                LatencyMeasure m = LatencyMeasure.valueOf(in.readString());
                long[] counts = new long[BucketCounts.BUCKETS];
                int k = 0;
                for (long c = in.readArrayStart(); c > 0; c = in.arrayNext()) {
                    for (long j = 0; j < c; j++) {
                        if (k == counts.length) {
                            throw new IllegalArgumentException("more than " + counts.length + " bucket counts");
                        }
                        counts[k++] = in.readLong();
                    }
                }
                if (k != counts.length) {
                    throw new IllegalArgumentException("expected " + counts.length + " bucket counts, got " + k);
                }
                histograms.put(m, new BucketCounts(counts, in.readLong()));
            }
        }
        if (!in.isEnd()) {
            throw new IllegalArgumentException("trailing bytes after WindowAggregate");
        }
        return new WindowAggregate(accuracy, completed, failed, cancelled, prompt, output, good, failures, sketches,
                histograms);
    }
}

package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Reads window state written before {@link WindowAggregateSerde} (version byte 1), so that
 * changelog topics and state directories of earlier capstream versions still restore. Decode only:
 * state is always written in the current format. Layout of version 1 ({@code DataOutputStream},
 * big-endian): version byte, relative accuracy (double), completed, failed, prompt tokens, output
 * tokens, good requests (longs), failure-type count (int) then per type its name
 * ({@code writeUTF}) and count (long), sketch count (int) then per sketch the {@link Quantity}
 * name ({@code writeUTF}), the length (int) and the DDSketch {@code encode} bytes. Stateless.
 */
final class LegacyWindowAggregateDecoder {
    /** Version byte of this layout. */
    static final byte VERSION = 1;

    private LegacyWindowAggregateDecoder() {
    }

    /**
     * @param data version-1 bytes, starting with the version byte; not null
     * @return the aggregate
     * @throws SerializationException when the version byte is not 1, the data is truncated, or a
     *                                quantity name is unknown
     */
    static WindowAggregate decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new SerializationException("not a version-1 WindowAggregate: version " + version);
            }
            double relativeAccuracy = in.readDouble();
            long completed = in.readLong();
            long failed = in.readLong();
            long promptTokens = in.readLong();
            long outputTokens = in.readLong();
            long goodRequests = in.readLong();
            int types = in.readInt();
            Map<String, Long> failures = new TreeMap<>();
            for (int i = 0; i < types; i++) {
                failures.put(in.readUTF(), in.readLong());
            }
            int n = in.readInt();
            Map<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);
            for (int i = 0; i < n; i++) {
                Quantity q = Quantity.valueOf(in.readUTF());
                int length = in.readInt();
                byte[] enc = in.readNBytes(length);
                if (enc.length != length) {
                    throw new IOException("sketch " + q + " truncated");
                }
                sketches.put(q, Sketches.decode(enc));
            }
            return new WindowAggregate(relativeAccuracy, completed, failed, promptTokens, outputTokens, goodRequests,
                    failures, sketches);
        } catch (IOException | RuntimeException e) {
            if (e instanceof SerializationException se) {
                throw se;
            }
            throw new SerializationException("cannot read version-1 WindowAggregate: " + e.getMessage(), e);
        }
    }
}

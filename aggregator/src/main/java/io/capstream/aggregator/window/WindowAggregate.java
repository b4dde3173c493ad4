package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Mutable, mergeable aggregate of one window of one key (target, model, context bucket): counts,
 * failures by error type, token sums, requests meeting every per-request SLO, and one DDSketch per
 * {@link Quantity}. Not thread-safe (one instance per processor call).
 *
 * <p>Binary form ({@link #toBytes()}): a version byte, then the longs and the failure map, then
 * each sketch as a length-prefixed DDSketch {@code encode} blob.
 */
public final class WindowAggregate {
    private static final byte VERSION = 1;

    private final double relativeAccuracy;
    private long completed;
    private long failed;
    private long promptTokens;
    private long outputTokens;
    private long goodRequests;
    private final TreeMap<String, Long> failuresByType = new TreeMap<>();
    private final EnumMap<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);

    /**
     * @param relativeAccuracy DDSketch relative accuracy, e.g. 0.01
     */
    public WindowAggregate(double relativeAccuracy) {
        this.relativeAccuracy = relativeAccuracy;
        for (Quantity q : Quantity.values()) {
            sketches.put(q, Sketches.create(relativeAccuracy));
        }
    }

    /**
     * Adds a completed request.
     *
     * @param sample its row values; not null
     * @param good   whether it meets every per-request SLO
     */
    public void addCompleted(RequestSample sample, boolean good) {
        completed++;
        if (good) {
            goodRequests++;
        }
        if (sample.promptTokens() != null) {
            promptTokens += sample.promptTokens();
        }
        outputTokens += sample.outputTokens();
        for (Quantity q : Quantity.values()) {
            Double v = sample.value(q);
            if (v != null && Double.isFinite(v) && v >= 0) {
                sketches.get(q).accept(v);
            }
        }
    }

    /**
     * Adds a failed request (it never meets an SLO and feeds no statistic, spec §6).
     *
     * @param errorType reference error class name, e.g. URLError; null counts as {@code unknown}
     */
    public void addFailed(String errorType) {
        failed++;
        failuresByType.merge(errorType == null || errorType.isEmpty() ? "unknown" : errorType, 1L, Long::sum);
    }

    /**
     * Merges another aggregate (same relative accuracy) into this one.
     *
     * @param other the other aggregate; not null
     */
    public void merge(WindowAggregate other) {
        completed += other.completed;
        failed += other.failed;
        promptTokens += other.promptTokens;
        outputTokens += other.outputTokens;
        goodRequests += other.goodRequests;
        other.failuresByType.forEach((k, v) -> failuresByType.merge(k, v, Long::sum));
        for (Quantity q : Quantity.values()) {
            sketches.get(q).mergeWith(other.sketches.get(q));
        }
    }

    /** @return completed requests */
    public long completed() {
        return completed;
    }

    /** @return failed requests */
    public long failed() {
        return failed;
    }

    /** @return completed + failed */
    public long requests() {
        return completed + failed;
    }

    /** @return sum of prompt tokens of completed requests */
    public long promptTokens() {
        return promptTokens;
    }

    /** @return sum of output tokens of completed requests */
    public long outputTokens() {
        return outputTokens;
    }

    /** @return completed requests that met every per-request SLO */
    public long goodRequests() {
        return goodRequests;
    }

    /** @return failures per error type (read-only, sorted by type) */
    public Map<String, Long> failuresByType() {
        return Collections.unmodifiableMap(failuresByType);
    }

    /** @return the relative accuracy of every sketch */
    public double relativeAccuracy() {
        return relativeAccuracy;
    }

    /**
     * @param quantity which quantity
     * @return its sketch (live, not a copy)
     */
    public DDSketch sketch(Quantity quantity) {
        return sketches.get(quantity);
    }

    /** @return the binary form */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeDouble(relativeAccuracy);
            out.writeLong(completed);
            out.writeLong(failed);
            out.writeLong(promptTokens);
            out.writeLong(outputTokens);
            out.writeLong(goodRequests);
            out.writeInt(failuresByType.size());
            for (Map.Entry<String, Long> e : failuresByType.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeInt(sketches.size());
            for (Quantity q : Quantity.values()) {
                byte[] enc = Sketches.encode(sketches.get(q));
                out.writeUTF(q.name());
                out.writeInt(enc.length);
                out.write(enc);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param data bytes from {@link #toBytes()}; not null
     * @return the aggregate
     * @throws IllegalArgumentException for an unknown version or truncated data
     */
    public static WindowAggregate fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown WindowAggregate version " + version);
            }
            WindowAggregate agg = new WindowAggregate(in.readDouble());
            agg.completed = in.readLong();
            agg.failed = in.readLong();
            agg.promptTokens = in.readLong();
            agg.outputTokens = in.readLong();
            agg.goodRequests = in.readLong();
            int types = in.readInt();
            for (int i = 0; i < types; i++) {
                agg.failuresByType.put(in.readUTF(), in.readLong());
            }
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                Quantity q = Quantity.valueOf(in.readUTF());
                byte[] enc = in.readNBytes(in.readInt());
                agg.sketches.put(q, Sketches.decode(enc));
            }
            return agg;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated WindowAggregate: " + e.getMessage(), e);
        }
    }
}

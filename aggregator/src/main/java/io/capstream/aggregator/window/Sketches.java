package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.mapping.LogarithmicMapping;
import com.datadoghq.sketch.ddsketch.store.UnboundedSizeDenseStore;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Creation and binary encoding of the DDSketches used by windowed summaries. Every sketch uses a
 * logarithmic index mapping with the given relative accuracy and unbounded dense stores, so a
 * quantile q of n values is within {@code relativeAccuracy} (relative error) of the exact
 * nearest-rank value: |estimate - exact| &le; relativeAccuracy &times; exact (for values &gt; 0).
 * Sketches are mergeable. Encoding uses DDSketch's own {@code encode}/{@code decode} wire format
 * (the index mapping is included), not {@code serialize}.
 */
public final class Sketches {
    /** Default relative accuracy: 1% (0.01). */
    public static final double DEFAULT_RELATIVE_ACCURACY = 0.01;

    private Sketches() {
    }

    /**
     * @param relativeAccuracy relative accuracy in (0, 1), e.g. 0.01 for 1%
     * @return an empty sketch
     */
    public static DDSketch create(double relativeAccuracy) {
        return new DDSketch(new LogarithmicMapping(relativeAccuracy), UnboundedSizeDenseStore::new);
    }

    /**
     * Merges {@code other} into {@code target}. Sketches of the same relative accuracy merge exactly (the bins'
     * counts add up: the result is the sketch of all values); one of another accuracy (an aggregate written before
     * the accuracy was changed) is converted to the target's index mapping first instead of failing.
     *
     * @param target the sketch merged into; not null
     * @param other  the sketch merged from, unchanged; not null
     */
    public static void merge(DDSketch target, DDSketch other) {
        if (target.getIndexMapping().equals(other.getIndexMapping())) {
            target.mergeWith(other);
        } else {
            target.mergeWith(other.convert(target.getIndexMapping(), UnboundedSizeDenseStore::new));
        }
    }

    /**
     * @param sketch the sketch; not null
     * @return its DDSketch encoding (with the index mapping)
     */
    public static byte[] encode(DDSketch sketch) {
        GrowingByteArrayOutput out = GrowingByteArrayOutput.withDefaultInitialCapacity();
        try {
            sketch.encode(out, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode DDSketch", e);
        }
        return out.trimmedCopy();
    }

    /**
     * @param bytes an encoding made by {@link #encode(DDSketch)}; not null
     * @return the decoded sketch
     * @throws UncheckedIOException when the bytes are not a valid encoding
     */
    public static DDSketch decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    /**
     * @param bytes  holds an encoding made by {@link #encode(DDSketch)}; not null
     * @param offset where the encoding begins
     * @param length its length, bytes
     * @return the decoded sketch
     * @throws UncheckedIOException when the bytes are not a valid encoding
     */
    public static DDSketch decode(byte[] bytes, int offset, int length) {
        try {
            return DDSketch.decode(ByteArrayInput.wrap(bytes, offset, length), UnboundedSizeDenseStore::new);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode DDSketch", e);
        }
    }
}

package io.capstream.aggregator.window;

import io.capstream.schemas.avro.WindowHistogram;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Mutable counts of one quantity's values in the fixed buckets {@link LatencyMeasure#BOUNDS_S} (seconds), with their
 * sum: the exact histogram of one window (issue 31). A value v falls in the first bucket i with
 * {@code v <= BOUNDS_S[i]} (Prometheus {@code le}, OpenTelemetry explicit bounds), else in the last bucket (+Inf).
 * Not thread-safe.
 */
public final class BucketCounts {
    private static final double[] BOUNDS = LatencyMeasure.BOUNDS_S.stream().mapToDouble(Double::doubleValue).toArray();
    /** Number of buckets: the finite ones and +Inf. */
    public static final int BUCKETS = BOUNDS.length + 1;

    private final long[] counts;
    /** Sum in whole nanoseconds: integer addition does not depend on the order windows and requests are added in. */
    private long sumNs;
    private long count;

    /** An empty histogram. */
    public BucketCounts() {
        this.counts = new long[BUCKETS];
    }

    /**
     * Restores a histogram (state store form).
     *
     * @param counts values per bucket, not cumulative, {@link #BUCKETS} elements; copied
     * @param sumNs  sum of the values, nanoseconds
     * @throws IllegalArgumentException when counts has the wrong length
     */
    public BucketCounts(long[] counts, long sumNs) {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " bucket counts, got " + counts.length);
        }
        this.counts = counts.clone();
        this.sumNs = sumNs;
        this.count = Arrays.stream(counts).sum();
    }

    /**
     * Counts a value.
     *
     * @param seconds the value, seconds; NaN, infinite and negative values are ignored
     */
    public void add(double seconds) {
        if (!Double.isFinite(seconds) || seconds < 0) {
            return;
        }
        int i = Arrays.binarySearch(BOUNDS, seconds);
        counts[i >= 0 ? i : -i - 1]++;
        sumNs += Math.round(seconds * 1e9);
        count++;
    }

    /**
     * Adds another histogram's counts and sum to this one.
     *
     * @param other the other; not null
     */
    public void merge(BucketCounts other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        sumNs += other.sumNs;
        count += other.count;
    }

    /** @return values per bucket, not cumulative (a copy), {@link #BUCKETS} elements */
    public long[] counts() {
        return counts.clone();
    }

    /** @return sum of the values, seconds (each value rounded to the nanosecond) */
    public double sumS() {
        return sumNs / 1e9;
    }

    /** @return sum of the values, whole nanoseconds (each value rounded) */
    public long sumNs() {
        return sumNs;
    }

    /** @return number of values */
    public long count() {
        return count;
    }

    /** @return the summary record form, with the bounds spelled out */
    public WindowHistogram toRecord() {
        List<Long> c = new ArrayList<>(BUCKETS);
        for (long n : counts) {
            c.add(n);
        }
        return new WindowHistogram(LatencyMeasure.BOUNDS_S, c, sumS(), count);
    }
}

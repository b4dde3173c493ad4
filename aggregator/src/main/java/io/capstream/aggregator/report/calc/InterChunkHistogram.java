package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Histogram;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The histogram of the per-token inter-chunk gaps ({@code RunStatistics.inter_chunk_histogram},
 * artifact key {@code capstream.statistics.inter_chunk_histogram}): logarithmic buckets,
 * {@value #BUCKETS_PER_DECADE} per decade, over the same gap values as {@code inter_chunk_ms}.
 *
 * <ul>
 *   <li>Bucket {@code k} holds the gaps {@code g} (ms) with {@code 10^(k/10) <= g < 10^((k+1)/10)}.
 *       Each edge is {@code 10^(k/10)} rounded to {@value #EDGE_DIGITS} significant digits, and the
 *       gaps are counted against those rounded edges ({@code lower_ms <= g < upper_ms} holds for the
 *       published numbers, bit for bit), so a gap on an edge, such as 10 ms, is always in the bucket
 *       that starts there.</li>
 *   <li>The gaps are whole microseconds ({@code RequestCompleted.output_chunk_gaps_us}), so the lowest
 *       regular bucket starts at {@value #RESOLUTION_MS} ms ({@code k = -30}). Gaps below that
 *       resolution, i.e. gaps of 0 (two chunks read at once), are in a dedicated bucket
 *       {@code [0, 0.001)} ms just below it (negative gaps, which a monotonic clock does not give,
 *       are counted there too, so that the counts always sum to the number of gaps).</li>
 *   <li>The buckets are contiguous and increasing, from the lowest to the highest non-empty bucket;
 *       empty buckets between them are listed with count 0.</li>
 * </ul>
 * One pass over the gaps, each placed by its logarithm and checked against a table of at most about
 * 100 edges (gaps are at most {@code Integer.MAX_VALUE} us): O(n). Pure function; thread-safe.
 */
public final class InterChunkHistogram {
    /** Buckets per decade of milliseconds. */
    public static final int BUCKETS_PER_DECADE = 10;
    /** The gaps' resolution and the lower edge of the lowest regular bucket, ms (1 us). */
    public static final double RESOLUTION_MS = 0.001;
    /** Significant digits of the published bucket edges. */
    public static final int EDGE_DIGITS = 6;
    /** Bucket index of {@link #RESOLUTION_MS}: 10^(-30/10) ms. */
    private static final int LOWEST_K = -30;
    private static final MathContext ROUNDING = new MathContext(EDGE_DIGITS);

    private InterChunkHistogram() {
    }

    /**
     * @param gapsMs every inter-chunk gap, ms (the values of {@code inter_chunk_ms}); not null, not
     *     modified, finite
     * @return the histogram, whose counts sum to {@code gapsMs.length}; null when there is no gap
     * @throws IllegalArgumentException when a gap is NaN or infinite
     */
    public static Histogram of(double[] gapsMs) {
        if (gapsMs.length == 0) {
            return null;
        }
        double max = RESOLUTION_MS;
        for (double g : gapsMs) {
            if (!Double.isFinite(g)) {
                throw new IllegalArgumentException("inter-chunk gap is not finite: " + g);
            }
            max = Math.max(max, g);
        }
        // edges[i] = lower edge of bucket LOWEST_K + i; the last edge lies above the largest gap
        int top = (int) Math.ceil(BUCKETS_PER_DECADE * Math.log10(max)) + 1;
        double[] edges = new double[top - LOWEST_K + 1];
        for (int i = 0; i < edges.length; i++) {
            edges[i] = edge(LOWEST_K + i);
        }
        long belowResolution = 0;
        long[] counts = new long[edges.length - 1];
        for (double g : gapsMs) {
            if (g < edges[0]) {
                belowResolution++;
            } else {
                counts[bucket(g, edges)]++;
            }
        }
        int lowest = belowResolution > 0 ? 0 : firstNonZero(counts);
        int highest = lastNonZero(counts);
        List<Double> lower = new ArrayList<>();
        List<Double> upper = new ArrayList<>();
        List<Long> count = new ArrayList<>();
        if (belowResolution > 0) {
            lower.add(0.0);
            upper.add(edges[0]);
            count.add(belowResolution);
        }
        for (int i = lowest; i <= highest; i++) {
            lower.add(edges[i]);
            upper.add(edges[i + 1]);
            count.add(counts[i]);
        }
        return Histogram.newBuilder().setLowerMs(lower).setUpperMs(upper).setCount(count).build();
    }

    /**
     * @param k bucket index (any int in the range of the gaps)
     * @return the lower edge of bucket {@code k}, {@code 10^(k/10)} rounded to {@value #EDGE_DIGITS}
     *     significant digits, ms
     */
    public static double edge(int k) {
        return new BigDecimal(Math.pow(10, (double) k / BUCKETS_PER_DECADE)).round(ROUNDING).doubleValue();
    }

    /**
     * The bucket of a gap by its logarithm, corrected against the rounded edges so that
     * {@code edges[i] <= g < edges[i + 1]} holds exactly.
     *
     * @param g a gap, ms, {@code >= edges[0]} and {@code < edges[edges.length - 1]}
     * @param edges the lower edges of the buckets from {@link #LOWEST_K} on, increasing
     * @return the bucket's position in {@code edges}
     */
    private static int bucket(double g, double[] edges) {
        int i = (int) Math.floor(BUCKETS_PER_DECADE * Math.log10(g)) - LOWEST_K;
        i = Math.max(0, Math.min(edges.length - 2, i));
        while (g < edges[i]) {
            i--;
        }
        while (g >= edges[i + 1]) {
            i++;
        }
        return i;
    }

    private static int firstNonZero(long[] counts) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                return i;
            }
        }
        return counts.length;
    }

    private static int lastNonZero(long[] counts) {
        for (int i = counts.length - 1; i >= 0; i--) {
            if (counts[i] > 0) {
                return i;
            }
        }
        return -1;
    }
}

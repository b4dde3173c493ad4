package io.capstream.schemas.stats;

import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;

/**
 * The one nearest-rank percentile of capstream (spec §8.1): {@code sorted[max(0, ceil(q * n / 100) - 1)]},
 * null for an empty sample. No interpolation: the result is always one of the samples, bit for bit. The rank
 * is computed in exact integer arithmetic (no {@code Math.ceil} of a floating product, whose rounding could
 * select the element above), so p95 of 20 values is the 19th and p50 of an even count the lower middle.
 * Used by the report calculator, the window summaries (sketches and the server window state) and the
 * simulated engine's own statistics. Stateless.
 */
public final class NearestRank {
    private NearestRank() {
    }

    /**
     * @param samples the values (nulls are skipped), not modified; not null
     * @param q percentile in (0, 100], e.g. 50 or 95
     * @return the nearest-rank percentile, or null when there is no non-null sample
     */
    public static Double percentile(Collection<? extends Number> samples, int q) {
        double[] v = samples.stream().filter(Objects::nonNull).mapToDouble(Number::doubleValue).toArray();
        return percentile(v, q);
    }

    /**
     * @param samples the values (copied, then sorted ascending); not null
     * @param q percentile in (0, 100]
     * @return the nearest-rank percentile, or null when {@code samples} is empty
     */
    public static Double percentile(double[] samples, int q) {
        if (samples.length == 0) {
            return null;
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        return ofSorted(s, q);
    }

    /**
     * @param sorted values in ascending order, at least one; not modified
     * @param q percentile in (0, 100]
     * @return the nearest-rank percentile of the values
     * @throws IllegalArgumentException when {@code sorted} is empty
     */
    public static double ofSorted(double[] sorted, int q) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        return sorted[index(sorted.length, q)];
    }

    /**
     * 0-based nearest-rank index {@code max(0, ceil(q * n / 100) - 1)}, in exact integer arithmetic.
     *
     * @param n sample size, &gt; 0
     * @param q percentile in (0, 100]
     * @return the index into the ascending sample, in {@code [0, n - 1]}
     */
    public static int index(int n, int q) {
        return (int) (rank(n, q) - 1);
    }

    /**
     * 1-based nearest-rank rank {@code max(1, ceil(q * n / 100))}, in exact integer arithmetic: the number of
     * smallest values to count to reach the percentile (for histograms and other counted samples).
     *
     * @param n sample size, &gt; 0
     * @param q percentile in (0, 100]
     * @return the rank, in {@code [1, n]}
     */
    public static long rank(long n, int q) {
        long ceil = -Math.floorDiv(-Math.multiplyExact((long) q, n), 100L);
        return Math.max(1, Math.min(n, ceil));
    }
}

package io.capstream.aggregator.report.calc;

import java.util.Arrays;
import java.util.Collection;

/**
 * Nearest-rank percentile (spec §8.1): {@code sorted[max(0, ceil(q * n / 100) - 1)]}, null for an
 * empty sample. No interpolation: the result is always one of the samples, bit for bit.
 */
public final class NearestRank {
    private NearestRank() {
    }

    /**
     * @param samples the values (nulls are skipped), not modified
     * @param q percentile in (0, 100], e.g. 50 or 95
     * @return the nearest-rank percentile, or null when there is no non-null sample
     */
    public static Double percentile(Collection<? extends Number> samples, int q) {
        double[] v = samples.stream().filter(x -> x != null).mapToDouble(Number::doubleValue).toArray();
        return percentile(v, q);
    }

    /**
     * @param samples the values (copied, then sorted ascending)
     * @param q percentile in (0, 100]
     * @return the nearest-rank percentile, or null when {@code samples} is empty
     */
    public static Double percentile(double[] samples, int q) {
        int n = samples.length;
        if (n == 0) {
            return null;
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        return s[index(n, q)];
    }

    /**
     * 0-based nearest-rank index {@code max(0, ceil(q * n / 100) - 1)}, in exact integer arithmetic.
     *
     * @param n sample size, &gt; 0
     * @param q percentile
     * @return the index into the ascending sample
     */
    public static int index(int n, int q) {
        long num = (long) q * n;
        long ceil = (num + 99) / 100;
        return (int) Math.max(0, ceil - 1);
    }
}

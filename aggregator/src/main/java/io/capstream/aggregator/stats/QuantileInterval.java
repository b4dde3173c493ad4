package io.capstream.aggregator.stats;

import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * Distribution-free confidence interval for a quantile from order statistics (issue 32): with n independent values
 * and the p-quantile ξ, the number of values at or below ξ is Binomial(n, p), so for 1-based ranks l &lt; u
 * {@code P(x(l) <= ξ <= x(u)) >= B(u-1) - B(l-1)} where B is that binomial's cumulative distribution (exact for
 * continuous distributions; e.g. Hahn &amp; Meeker, <i>Statistical Intervals</i>, §5.2; Conover, <i>Practical
 * Nonparametric Statistics</i>, §3.2). The ranks are chosen equal-tailed: l is the largest rank with
 * {@code B(l-1) <= α/2}, u the smallest with {@code B(u-1) >= 1 - α/2}, so each side misses with probability at most
 * α/2 and the coverage is at least {@code 1 - α}. When l &lt; 1 or u &gt; n the sample is too small for an interval
 * at that level (at 95%: a p50 interval needs n &ge; 6, a p95 one n &ge; 72, a p99 one n &ge; 368): {@link #ranks} says so instead of
 * giving ranks. Binomial cumulative probabilities come from Hipparchus. Stateless.
 */
public final class QuantileInterval {
    /** The default confidence level of every interval capstream prints, 0.95. */
    public static final double DEFAULT_LEVEL = 0.95;

    private QuantileInterval() {
    }

    /**
     * The 1-based ranks of the interval's ends.
     *
     * @param n       sample size, &ge; 0
     * @param p       the quantile, in (0, 1), e.g. 0.95 for p95
     * @param level   confidence level, in (0, 1), e.g. 0.95
     * @return the ranks, or one that says why there is none ({@link Ranks#reason()})
     * @throws IllegalArgumentException for p or level outside (0, 1) or a negative n
     */
    public static Ranks ranks(long n, double p, double level) {
        if (!(p > 0 && p < 1) || !(level > 0 && level < 1) || n < 0) {
            throw new IllegalArgumentException("need 0 < p < 1, 0 < level < 1, n >= 0; got p=" + p + " level=" + level
                    + " n=" + n);
        }
        if (n == 0) {
            return Ranks.none(0, "no values");
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sample of " + n + " values is beyond the binomial's range");
        }
        BinomialDistribution b = new BinomialDistribution((int) n, p);
        double tail = (1 - level) / 2;
        // smallest k with B(k) >= 1 - tail: u - 1 = k
        long u = b.inverseCumulativeProbability(1 - tail) + 1L;
        // smallest k with B(k) >= tail; l - 1 is the largest k with B(k) <= tail
        int k = b.inverseCumulativeProbability(tail);
        long l = b.cumulativeProbability(k) <= tail ? k + 1L : k;
        if (l < 1 || u > n) {
            return Ranks.none(n, String.format(java.util.Locale.ROOT,
                    "%d values are too few for a %.0f%% interval of p%s (needs at least %d)", n, level * 100,
                    percentileLabel(p), minimumSample(p, level)));
        }
        double coverage = b.cumulativeProbability((int) (u - 1)) - b.cumulativeProbability((int) (l - 1));
        return new Ranks(n, l, u, coverage, null);
    }

    /**
     * The interval of a quantile of sorted values.
     *
     * @param sorted  the values in ascending order; not null
     * @param p       the quantile, in (0, 1)
     * @param level   confidence level, in (0, 1)
     * @return [low, high] (same unit as the values), or null when the sample is too small ({@link #ranks} says why)
     */
    public static double[] of(double[] sorted, double p, double level) {
        Ranks r = ranks(sorted.length, p, level);
        if (r.reason() != null) {
            return null;
        }
        return new double[] {sorted[(int) r.lower() - 1], sorted[(int) r.upper() - 1]};
    }

    /**
     * @param p     the quantile, in (0, 1)
     * @param level confidence level, in (0, 1)
     * @return the smallest sample size with an interval at that level, the smallest n with both
     *         {@code p^n <= α/2} (upper rank within n) and {@code (1-p)^n <= α/2} (lower rank at least 1), e.g. 72 for
     *         p95 at 95%
     */
    public static long minimumSample(double p, double level) {
        // u <= n needs B(n-1) = 1 - p^n >= 1 - tail; l >= 1 needs B(0) = (1-p)^n <= tail
        double tail = (1 - level) / 2;
        return Math.max(smallestPower(p, tail), smallestPower(1 - p, tail));
    }

    /** @return the smallest n &ge; 1 with {@code q^n <= tail} (0 &lt; q, tail &lt; 1) */
    private static long smallestPower(double q, double tail) {
        long n = Math.max(1, (long) Math.ceil(Math.log(tail) / Math.log(q)));
        // the logarithms may be off by a rounding step at an exact power
        while (n > 1 && Math.pow(q, n - 1) <= tail) {
            n--;
        }
        while (Math.pow(q, n) > tail) {
            n++;
        }
        return n;
    }

    private static String percentileLabel(double p) {
        double pct = p * 100;
        return pct == Math.rint(pct) ? Long.toString(Math.round(pct)) : Double.toString(pct);
    }

    /**
     * Ranks of an interval's ends.
     *
     * @param n        sample size
     * @param lower    1-based rank of the lower end (the lower end is the lower-th smallest value); 0 when none
     * @param upper    1-based rank of the upper end; 0 when none
     * @param coverage the interval's exact coverage for continuous data, &ge; the level; NaN when none
     * @param reason   why there is no interval (too few values), or null when there is one
     */
    public record Ranks(long n, long lower, long upper, double coverage, String reason) {
        static Ranks none(long n, String reason) {
            return new Ranks(n, 0, 0, Double.NaN, reason);
        }
    }
}

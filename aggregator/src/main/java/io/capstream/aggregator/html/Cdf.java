package io.capstream.aggregator.html;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The empirical cumulative distribution of some values (ms): the fraction of values at or below x.
 * Non-finite values are ignored. Immutable.
 */
public final class Cdf {
    private final double[] sorted;

    private Cdf(double[] sorted) {
        this.sorted = sorted;
    }

    /**
     * @param values any values; NaN and infinities are ignored; not null
     * @return their distribution
     */
    public static Cdf of(double[] values) {
        double[] s = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        return new Cdf(s);
    }

    /** @return the number of finite values */
    public int count() {
        return sorted.length;
    }

    /**
     * @param x a value
     * @return the share of values &lt;= x, 0..1; NaN when there are no values
     */
    public double fractionAtOrBelow(double x) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return (double) lo / sorted.length;
    }

    /**
     * The values at which the curve is drawn: every value when there are at most {@code maxPoints},
     * else the minimum and the nearest-rank values at {@code maxPoints - 1} evenly spaced ranks
     * ({@code ceil(j * n / (maxPoints - 1))}, j = 1..maxPoints-1, which ends at the maximum).
     *
     * @param maxPoints at least 2
     * @return ascending values, possibly repeated
     * @throws IllegalArgumentException when {@code maxPoints < 2}
     */
    public double[] sample(int maxPoints) {
        if (maxPoints < 2) {
            throw new IllegalArgumentException("maxPoints must be >= 2");
        }
        int n = sorted.length;
        if (n <= maxPoints) {
            return sorted.clone();
        }
        int m = maxPoints - 1;
        double[] out = new double[maxPoints];
        out[0] = sorted[0];
        for (int j = 1; j <= m; j++) {
            long rank = ((long) j * n + m - 1) / m;
            out[j] = sorted[(int) rank - 1];
        }
        return out;
    }

    /**
     * A STEP chart of one or more distributions on a shared x: the distinct values of every
     * distribution's {@link #sample(int)}, and per distribution its fraction at or below each x.
     *
     * @param id        chart id
     * @param title     chart title
     * @param xLabel    x label with unit
     * @param labels    one legend label per distribution
     * @param cdfs      the distributions (empty ones give an all-NaN series)
     * @param maxPoints the most points sampled per distribution (at least 2)
     * @return the chart; its x is empty when every distribution is empty
     */
    public static Chart chart(String id, String title, String xLabel, List<String> labels, List<Cdf> cdfs,
                              int maxPoints) {
        if (labels.size() != cdfs.size()) {
            throw new IllegalArgumentException("one label per distribution");
        }
        TreeSet<Double> xs = new TreeSet<>();
        for (Cdf c : cdfs) {
            for (double v : c.sample(maxPoints)) {
                xs.add(v);
            }
        }
        double[] x = xs.stream().mapToDouble(Double::doubleValue).toArray();
        List<Chart.Series> series = new java.util.ArrayList<>();
        for (int k = 0; k < cdfs.size(); k++) {
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = cdfs.get(k).fractionAtOrBelow(x[i]);
            }
            series.add(new Chart.Series(labels.get(k), y));
        }
        return new Chart(id, title, xLabel, "fraction of requests", Chart.Kind.STEP, x, series);
    }
}

package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.stats.NearestRank;
import java.util.Arrays;
import java.util.Collection;

/**
 * Builds a {@link Distribution} (BenchmarkReport.avsc, {@code Distribution}) from one quantity's
 * values: count, mean, population standard deviation, min, max and the nearest-rank p50, p90, p95
 * and p99 of {@link NearestRank} (spec §8.1). Pure functions; thread-safe.
 *
 * <p>Exactness: the mean is {@code sum / count} in double; the standard deviation is two-pass,
 * {@code sqrt(sum((x - mean)^2) / count)} (numpy's {@code std} with {@code ddof=0}); the percentiles,
 * min and max are always one of the values, bit for bit.
 */
public final class Distributions {
    private static final int[] PERCENTILES = {50, 90, 95, 99};

    private Distributions() {
    }

    /**
     * @param values the values in the quantity's unit (nulls are skipped); not null, not modified
     * @return the distribution; count 0 and every statistic null when there is no non-null value
     */
    public static Distribution of(Collection<? extends Number> values) {
        return of(values.stream().filter(v -> v != null).mapToDouble(Number::doubleValue).toArray());
    }

    /**
     * @param values the values in the quantity's unit; not null, not modified (a sorted copy is used)
     * @return the distribution; count 0 and every statistic null when {@code values} is empty
     */
    public static Distribution of(double[] values) {
        int n = values.length;
        if (n == 0) {
            return Distribution.newBuilder().setCount(0).build();
        }
        double[] s = values.clone();
        Arrays.sort(s);
        double sum = 0;
        for (double v : s) {
            sum += v;
        }
        double mean = sum / n;
        double squares = 0;
        for (double v : s) {
            double d = v - mean;
            squares += d * d;
        }
        Double[] p = new Double[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            p[i] = s[NearestRank.index(n, PERCENTILES[i])];
        }
        return Distribution.newBuilder()
                .setCount(n)
                .setMean(mean)
                .setStddev(Math.sqrt(squares / n))
                .setMin(s[0])
                .setMax(s[n - 1])
                .setP50(p[0])
                .setP90(p[1])
                .setP95(p[2])
                .setP99(p[3])
                .build();
    }
}

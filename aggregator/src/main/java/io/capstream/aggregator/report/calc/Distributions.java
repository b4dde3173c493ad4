package io.capstream.aggregator.report.calc;

import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link Distribution} (BenchmarkReport.avsc, {@code Distribution}) from one quantity's
 * values: count, mean, population standard deviation, min, max and the nearest-rank p50, p90, p95
 * and p99 of {@link NearestRank} (spec §8.1), each with its distribution-free 95% confidence interval
 * ({@link QuantileInterval}, issue 32: {@code p50_ci}..{@code p99_ci}, two of the values; {@code ci_unavailable}
 * says why a percentile has none when there are too few values). Pure functions; thread-safe.
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
        List<List<Double>> ci = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        for (int i = 0; i < PERCENTILES.length; i++) {
            p[i] = s[NearestRank.index(n, PERCENTILES[i])];
            QuantileInterval.Ranks r = QuantileInterval.ranks(n, PERCENTILES[i] / 100.0, QuantileInterval.DEFAULT_LEVEL);
            if (r.reason() != null) {
                ci.add(null);
                unavailable.put("p" + PERCENTILES[i], r.reason());
            } else {
                ci.add(List.of(s[(int) r.lower() - 1], s[(int) r.upper() - 1]));
            }
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
                .setP50Ci(ci.get(0))
                .setP90Ci(ci.get(1))
                .setP95Ci(ci.get(2))
                .setP99Ci(ci.get(3))
                .setCiUnavailable(unavailable.isEmpty() ? null : unavailable)
                .build();
    }
}

package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import io.capstream.schemas.stats.NearestRank;

/**
 * Reads a percentile from a DDSketch at the rank of {@link NearestRank} (spec §8.1), so windowed
 * percentiles mean the same as the report's. DDSketch's own {@code getValueAtQuantile(q)} picks
 * the element of rank {@code q * (n - 1)}; this class asks for the quantile whose rank is the
 * nearest-rank index plus one half, so that floating-point rounding cannot select the element
 * below. The result is within the sketch's relative accuracy of the exact nearest-rank value.
 */
public final class SketchPercentile {
    private SketchPercentile() {
    }

    /**
     * @param sketch     the sketch; not null
     * @param percentile percentile in (0, 100], e.g. 95
     * @return the estimated nearest-rank percentile, or null when the sketch is empty
     */
    public static Double percentile(DDSketch sketch, int percentile) {
        long n = Math.round(sketch.getCount());
        if (n == 0) {
            return null;
        }
        return valueAtRank(sketch, NearestRank.rank(n, percentile));
    }

    /**
     * The sketch's estimate of the rank-th smallest value (1-based), asked as the quantile whose DDSketch rank
     * {@code q * (n - 1)} is the 0-based index plus one half (see the class comment); within the sketch's relative
     * accuracy of the exact value.
     *
     * @param sketch the sketch; not null, not empty
     * @param rank   1-based rank, 1..n
     * @return the estimated value (the sketch's unit)
     * @throws java.util.NoSuchElementException when the sketch is empty
     */
    public static double valueAtRank(DDSketch sketch, long rank) {
        long n = Math.round(sketch.getCount());
        long index = rank - 1;
        double q = n <= 1 ? 0.0 : Math.min(1.0, (index + 0.5) / (n - 1));
        return sketch.getValueAtQuantile(q);
    }
}

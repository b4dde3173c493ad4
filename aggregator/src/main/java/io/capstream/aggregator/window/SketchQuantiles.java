package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.avro.Quantiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A window's {@link Quantiles} of one quantity from its DDSketch (issue 32): the nearest-rank p50/p95/p99 of
 * {@link SketchPercentile}, and for each the distribution-free 95% interval of {@link QuantileInterval}. The
 * interval's order-statistic ranks are read from the sketch ({@link SketchPercentile#valueAtRank}); the sketch
 * returns an estimate e of each value x with {@code |e − x| ≤ α·x} (α its relative accuracy), so x lies in
 * {@code [e/(1+α), e/(1−α)]} and the ends are widened to {@code [low/(1+α), high/(1−α)]} (for values &gt; 0; negative
 * ends mirrored): the interval then holds the exact order-statistic interval of the window's values and keeps at
 * least its 95% coverage of the true quantile. (Widening by {@code high·(1+α)} would fall short by up to α²·x: a
 * DDSketch bucket's estimate can sit a factor 1−α below its values.) Where the window has too few samples, the interval is null and
 * {@code ci_unavailable} holds {@link QuantileInterval}'s reason. Ranks come from {@link QuantileInterval#ranks} (two binomial inverses per percentile, about 10 us), once per
 * sample size and percentile ({@link IntervalRanks}).
 * Stateless; thread-safe.
 */
public final class SketchQuantiles {
    private static final int[] PERCENTILES = {50, 95, 99};

    private SketchQuantiles() {
    }

    /**
     * @param sketch           the window's sketch of one quantity; not null
     * @param relativeAccuracy the sketch's relative accuracy α in [0, 1), e.g. 0.01
     * @return the quantiles with their intervals, or null when the sketch is empty
     */
    public static Quantiles of(DDSketch sketch, double relativeAccuracy) {
        long n = Math.round(sketch.getCount());
        if (n == 0) {
            return null;
        }
        Double[] points = new Double[PERCENTILES.length];
        List<List<Double>> intervals = new ArrayList<>(PERCENTILES.length);
        Map<String, String> unavailable = new LinkedHashMap<>();
        for (int i = 0; i < PERCENTILES.length; i++) {
            int pct = PERCENTILES[i];
            points[i] = SketchPercentile.percentile(sketch, pct);
            QuantileInterval.Ranks r = IntervalRanks.of(n, pct);
            if (r.reason() != null) {
                intervals.add(null);
                unavailable.put("p" + pct, r.reason());
            } else {
                double low = SketchPercentile.valueAtRank(sketch, r.lower());
                double high = SketchPercentile.valueAtRank(sketch, r.upper());
                intervals.add(List.of(widenDown(low, relativeAccuracy), widenUp(high, relativeAccuracy)));
            }
        }
        return new Quantiles(n, points[0], points[1], points[2], intervals.get(0), intervals.get(1), intervals.get(2),
                unavailable.isEmpty() ? null : unavailable);
    }

    /** @return the smallest value an estimate e can stand for: e/(1+α) for e &ge; 0, e/(1−α) below 0 */
    static double widenDown(double e, double alpha) {
        return e >= 0 ? e / (1 + alpha) : e / (1 - alpha);
    }

    /** @return the largest value an estimate e can stand for: e/(1−α) for e &ge; 0, e/(1+α) below 0 */
    static double widenUp(double e, double alpha) {
        return e >= 0 ? e / (1 - alpha) : e / (1 + alpha);
    }
}

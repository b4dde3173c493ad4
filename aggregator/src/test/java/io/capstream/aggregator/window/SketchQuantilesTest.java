package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import com.datadoghq.sketch.ddsketch.DDSketch;
import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.avro.Quantiles;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Issue 32: a window's intervals read from its DDSketch hold the exact order-statistic interval. */
class SketchQuantilesTest {
    private static final double ALPHA = Sketches.DEFAULT_RELATIVE_ACCURACY;

    @Test
    void sketchIntervalsHoldTheExactIntervalWithinTheSketchAccuracy() {
        Random random = new Random(11);
        int[] sizes = {6, 20, 72, 100, 368, 500, 2000, 5000};
        for (int n : sizes) {
            for (int trial = 0; trial < 10; trial++) {
                double[] values = new double[n];
                DDSketch sketch = Sketches.create(ALPHA);
                for (int i = 0; i < n; i++) {
                    values[i] = trial % 2 == 0 ? Math.exp(random.nextGaussian() + 5) : 1 + random.nextDouble() * 900;
                    sketch.accept(values[i]);
                }
                Arrays.sort(values);
                Quantiles q = SketchQuantiles.of(sketch, ALPHA);
                check(n, trial, 0.50, values, q.getP50Ci());
                check(n, trial, 0.95, values, q.getP95Ci());
                check(n, trial, 0.99, values, q.getP99Ci());
            }
        }
    }

    private static void check(int n, int trial, double p, double[] sorted, List<Double> fromSketch) {
        double[] exact = QuantileInterval.of(sorted, p, QuantileInterval.DEFAULT_LEVEL);
        String what = "n=" + n + " trial " + trial + " p" + Math.round(p * 100) + " exact " + Arrays.toString(exact)
                + " sketch " + fromSketch;
        if (exact == null) {
            assertThat(fromSketch).as(what).isNull();
            return;
        }
        assertThat(fromSketch).as(what).hasSize(2);
        // the sketch reads each end within α (|e - x| <= αx); widened to e/(1+α) .. e/(1-α) it holds the exact end,
        // and is at most that far off it
        assertThat(fromSketch.get(0)).as("low, " + what).isLessThanOrEqualTo(exact[0])
                .isGreaterThanOrEqualTo(exact[0] * (1 - ALPHA) / (1 + ALPHA) * (1 - 1e-12));
        assertThat(fromSketch.get(1)).as("high, " + what).isGreaterThanOrEqualTo(exact[1])
                .isLessThanOrEqualTo(exact[1] * (1 + ALPHA) / (1 - ALPHA) * (1 + 1e-12));
    }

    /** Exact values: 1..100 ms, α = 1%: p50's ranks 40..61, p95's 90..100 (bench/intervals/check.py), p99 none. */
    @Test
    void oneToHundred() {
        DDSketch sketch = Sketches.create(ALPHA);
        for (int i = 1; i <= 100; i++) {
            sketch.accept(i);
        }
        Quantiles q = SketchQuantiles.of(sketch, ALPHA);
        assertThat(q.getCount()).as("count").isEqualTo(100);
        assertThat(q.getP95()).as("p95").isCloseTo(95.0, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(q.getP50Ci().get(0)).as("p50 low, rank 40 read within 1%% and widened")
                .isBetween(40 * 0.99 / 1.01, 40.0);
        assertThat(q.getP50Ci().get(1)).as("p50 high, rank 61").isBetween(61.0, 61 * 1.01 / 0.99);
        assertThat(q.getP95Ci().get(0)).as("p95 low, rank 90").isBetween(90 * 0.99 / 1.01, 90.0);
        assertThat(q.getP95Ci().get(1)).as("p95 high, rank 100").isBetween(100.0, 100 * 1.01 / 0.99);
        assertThat(q.getP99Ci()).as("p99_ci of 100 samples").isNull();
        assertThat(q.getCiUnavailable()).as("ci_unavailable").containsExactly(Map.entry("p99",
                "100 values are too few for a 95% interval of p99 (needs at least 368)"));
    }

    @Test
    void aFortyRequestWindowHasAMedianIntervalButNoP95() {
        DDSketch sketch = Sketches.create(ALPHA);
        for (int i = 1; i <= 40; i++) {
            sketch.accept(100 + i);
        }
        Quantiles q = SketchQuantiles.of(sketch, ALPHA);
        assertThat(q.getP50Ci()).as("p50_ci of 40").isNotNull();
        assertThat(q.getP95Ci()).as("p95_ci of 40").isNull();
        assertThat(q.getCiUnavailable()).as("ci_unavailable of 40").containsOnlyKeys("p95", "p99");
        assertThat(q.getCiUnavailable().get("p95")).as("p95 reason")
                .isEqualTo("40 values are too few for a 95% interval of p95 (needs at least 72)");
        assertThat(SketchQuantiles.of(Sketches.create(ALPHA), ALPHA)).as("empty sketch").isNull();
    }

    /** An estimate that sits a factor 1 - α below its value (the edge of a DDSketch bucket) still bounds it. */
    @Test
    void wideningCoversAnEstimateAtTheEdgeOfItsBucket() {
        double x = 780.6462534058716;
        double e = x * (1 - ALPHA) * (1 + 1e-15);
        assertThat(SketchQuantiles.widenUp(e, ALPHA)).as("high end from e = x(1-α)").isGreaterThanOrEqualTo(x);
        assertThat(e * (1 + ALPHA)).as("e(1+α), the naive widening, falls short").isLessThan(x);
        assertThat(SketchQuantiles.widenDown(x * (1 + ALPHA), ALPHA)).as("low end from e = x(1+α)")
                .isLessThanOrEqualTo(x * (1 + 1e-15));
        assertThat(SketchQuantiles.widenDown(-10.0, ALPHA)).as("negative low end").isLessThan(-10.0);
        assertThat(SketchQuantiles.widenUp(-10.0, ALPHA)).as("negative high end").isGreaterThan(-10.0);
    }
}

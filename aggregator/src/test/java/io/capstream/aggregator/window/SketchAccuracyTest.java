package io.capstream.aggregator.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datadoghq.sketch.ddsketch.DDSketch;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** DDSketch nearest-rank percentiles against the exact nearest-rank values (spec §8.1). */
class SketchAccuracyTest {
    private static final int[] PERCENTILES = {50, 95, 99};

    @Test
    void percentilesAreWithinRelativeAccuracyOfExactNearestRank() {
        Random random = new Random(42);
        double accuracy = Sketches.DEFAULT_RELATIVE_ACCURACY;
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(trial < 20 ? 25 : 5000);
            double[] values = new double[n];
            DDSketch sketch = Sketches.create(accuracy);
            for (int i = 0; i < n; i++) {
                // log-normal latencies spanning ~1 ms .. ~100 s, plus some uniform rates
                values[i] = trial % 2 == 0 ? Math.exp(random.nextGaussian() * 2 + 5) : 1 + random.nextDouble() * 5000;
                sketch.accept(values[i]);
            }
            Arrays.sort(values);
            for (int p : PERCENTILES) {
                double exact = io.capstream.schemas.stats.NearestRank.percentile(values, p);
                double estimate = SketchPercentile.percentile(sketch, p);
                double relError = Math.abs(estimate - exact) / exact;
                assertTrue(relError <= accuracy + 1e-12,
                        "trial " + trial + " n=" + n + " p" + p + ": exact " + exact + " estimate " + estimate
                                + " relative error " + relError);
            }
        }
    }

    @Test
    void smallSamplesPickTheNearestRankElement() {
        // n = 10: p50 is the 5th smallest, p95 and p99 the maximum (spec §8.1)
        DDSketch sketch = Sketches.create(0.01);
        for (int i = 1; i <= 10; i++) {
            sketch.accept(i * 100.0);
        }
        assertEquals(500.0, SketchPercentile.percentile(sketch, 50), 5.0);
        assertEquals(1000.0, SketchPercentile.percentile(sketch, 95), 10.0);
        assertEquals(1000.0, SketchPercentile.percentile(sketch, 99), 10.0);
        assertEquals(null, SketchPercentile.percentile(Sketches.create(0.01), 50));
    }

    @Test
    void encodeDecodeAndMergeKeepTheDistribution() {
        Random random = new Random(7);
        DDSketch a = Sketches.create(0.01);
        DDSketch b = Sketches.create(0.01);
        DDSketch all = Sketches.create(0.01);
        for (int i = 0; i < 1000; i++) {
            double v = 10 + random.nextDouble() * 990;
            (i % 2 == 0 ? a : b).accept(v);
            all.accept(v);
        }
        DDSketch merged = Sketches.decode(Sketches.encode(a));
        merged.mergeWith(Sketches.decode(Sketches.encode(b)));
        assertEquals(1000.0, merged.getCount());
        for (int p : PERCENTILES) {
            assertEquals(SketchPercentile.percentile(all, p), SketchPercentile.percentile(merged, p));
        }
    }
}

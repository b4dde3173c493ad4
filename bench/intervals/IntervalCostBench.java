/*
 * Cost of a window's intervals (issue 32) per window close and quantity: SketchQuantiles.of (p50/p95/p99 with their
 * intervals) against the three SketchPercentile reads it replaced, on DDSketches of n lognormal values. "cold" asks
 * for a different n every call, "warm" for the same n; since the ranks are no longer cached both compute two binomial
 * inverses per percentile. Single thread. Run by hand:  bench/intervals/cost.sh
 */
import com.datadoghq.sketch.ddsketch.DDSketch;
import io.capstream.aggregator.window.SketchPercentile;
import io.capstream.aggregator.window.SketchQuantiles;
import io.capstream.aggregator.window.Sketches;
import java.util.Random;

public class IntervalCostBench {
    static double sink;

    public static void main(String[] args) {
        Random random = new Random(5);
        int[] sizes = {50, 250, 1000, 5000};
        for (int round = 0; round < 3; round++) {
            for (int n : sizes) {
                DDSketch[] sketches = new DDSketch[200];
                for (int s = 0; s < sketches.length; s++) {
                    sketches[s] = Sketches.create(0.01);
                    int m = n + s; // distinct counts: cold lookups
                    for (int i = 0; i < m; i++) {
                        sketches[s].accept(Math.exp(random.nextGaussian() * 0.5 + 6));
                    }
                }
                int calls = 20_000;
                long t0 = System.nanoTime();
                for (int c = 0; c < calls; c++) {
                    DDSketch sk = sketches[c % sketches.length];
                    sink += SketchPercentile.percentile(sk, 50) + SketchPercentile.percentile(sk, 95)
                            + SketchPercentile.percentile(sk, 99);
                }
                long t1 = System.nanoTime();
                for (int c = 0; c < calls; c++) {
                    sink += SketchQuantiles.of(sketches[c % sketches.length], 0.01).getP50();
                }
                long t2 = System.nanoTime();
                // cold: a fresh count per call (n + 200 + c)
                DDSketch big = Sketches.create(0.01);
                for (int i = 0; i < n; i++) {
                    big.accept(Math.exp(random.nextGaussian() * 0.5 + 6));
                }
                int cold = 2_000;
                long t3 = System.nanoTime();
                for (int c = 0; c < cold; c++) {
                    big.accept(400.0);
                    sink += SketchQuantiles.of(big, 0.01).getP50();
                }
                long t4 = System.nanoTime();
                System.out.printf("round %d n~%5d: 3 percentiles %6.2f us, with intervals (warm ranks) %6.2f us,"
                        + " (cold ranks) %7.2f us per quantity%n", round, n, (t1 - t0) / 1e3 / calls,
                        (t2 - t1) / 1e3 / calls, (t4 - t3) / 1e3 / cold);
            }
        }
    }
}

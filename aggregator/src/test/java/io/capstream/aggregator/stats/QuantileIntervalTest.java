package io.capstream.aggregator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantileIntervalTest {
    @Test
    void smallestSamplesWithAnIntervalAtNinetyFivePercent() {
        assertThat(QuantileInterval.minimumSample(0.5, 0.95)).as("p50").isEqualTo(6);
        assertThat(QuantileInterval.minimumSample(0.95, 0.95)).as("p95: 0.95^n <= 0.025").isEqualTo(72);
        assertThat(QuantileInterval.minimumSample(0.99, 0.95)).as("p99: 0.99^n <= 0.025").isEqualTo(368);
    }

    /** Conover (1999), Practical Nonparametric Statistics, Table A3 style check: median of 20 at 95% is x(6)..x(15). */
    @Test
    void medianOfTwentyIsSixthToFifteenth() {
        QuantileInterval.Ranks r = QuantileInterval.ranks(20, 0.5, 0.95);
        assertThat(r.reason()).as("reason").isNull();
        assertThat(new long[] {r.lower(), r.upper()}).as("ranks").containsExactly(6, 15);
        assertThat(r.coverage()).as("coverage").isBetween(0.95, 0.96);
    }

    @Test
    void tooFewValuesSaySoInsteadOfANumber() {
        QuantileInterval.Ranks r = QuantileInterval.ranks(40, 0.95, 0.95);
        assertThat(r.reason()).as("reason for 40 values")
                .isEqualTo("40 values are too few for a 95% interval of p95 (needs at least 72)");
        assertThat(QuantileInterval.of(new double[40], 0.95, 0.95)).as("interval of 40 values").isNull();
        assertThat(QuantileInterval.ranks(0, 0.5, 0.95).reason()).isEqualTo("no values");
        assertThatThrownBy(() -> QuantileInterval.ranks(10, 1.0, 0.95)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Coverage by simulation: about 95% of intervals from repeated exponential samples contain the true p95. */
    @Test
    void coversTheTrueQuantileAboutNinetyFivePercentOfTheTime() {
        Random random = new Random(42);
        double truth = -Math.log(1 - 0.95); // p95 of Exp(1)
        int covered = 0;
        int trials = 2000;
        for (int t = 0; t < trials; t++) {
            double[] x = new double[200];
            for (int i = 0; i < x.length; i++) {
                x[i] = -Math.log(1 - random.nextDouble());
            }
            Arrays.sort(x);
            double[] ci = QuantileInterval.of(x, 0.95, 0.95);
            if (ci[0] <= truth && truth <= ci[1]) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).as("coverage of 2000 intervals, n = 200").isBetween(0.935, 0.985);
    }
}

package io.capstream.aggregator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PercentileDifferenceTest {
    /** Log-normal latencies around {@code medianMs}, like a TTFT distribution with a right tail. */
    private static double[] latencies(Random random, int n, double medianMs) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = medianMs * Math.exp(0.4 * random.nextGaussian());
        }
        return v;
    }

    @Test
    void sameDistributionIsWithinNoiseInAboutNinetyFivePercentOfSamples() {
        Random random = new Random(7);
        int trials = 300;
        int withinP50 = 0;
        int withinP95 = 0;
        for (int t = 0; t < trials; t++) {
            double[] a = latencies(random, 200, 100);
            double[] b = latencies(random, 200, 100);
            PercentileDifference.Result p50 = PercentileDifference.of(a, b, 50, 0.95, 2_000, t);
            PercentileDifference.Result p95 = PercentileDifference.of(a, b, 95, 0.95, 2_000, t);
            if (ChangeVerdict.of(p50.low(), p50.high(), true, 0) == ChangeVerdict.WITHIN_NOISE) {
                withinP50++;
            }
            if (ChangeVerdict.of(p95.low(), p95.high(), true, 0) == ChangeVerdict.WITHIN_NOISE) {
                withinP95++;
            }
        }
        assertThat(withinP50 / (double) trials).as("share of same-distribution pairs within noise at p50 (%d of %d)",
                withinP50, trials).isGreaterThanOrEqualTo(0.93);
        assertThat(withinP95 / (double) trials).as("share within noise at p95 (%d of %d)", withinP95, trials)
                .isGreaterThanOrEqualTo(0.92);
    }

    @Test
    void aTwoAndAHalfFoldShiftIsARegressionEveryTime() {
        Random random = new Random(11);
        for (int t = 0; t < 50; t++) {
            double[] a = latencies(random, 200, 100);
            double[] b = latencies(random, 200, 250);
            PercentileDifference.Result r = PercentileDifference.of(a, b, 50, 0.95, 2_000, t);
            assertThat(ChangeVerdict.of(r.low(), r.high(), true, 0)).as("trial %d: p50 %s", t, r)
                    .isEqualTo(ChangeVerdict.REGRESSION);
            assertThat(ChangeVerdict.of(r.low(), r.high(), false, 0)).as("the same shift of a throughput")
                    .isEqualTo(ChangeVerdict.IMPROVEMENT);
            assertThat(r.low()).as("interval's low end of a +150 ms shift").isGreaterThan(100);
        }
    }

    @Test
    void pointEstimatesAreTheNearestRankPercentilesAndTheIntervalContainsTheirDifference() {
        double[] a = new double[100];
        double[] b = new double[100];
        for (int i = 0; i < 100; i++) {
            a[99 - i] = i + 1; // 1..100, reversed: the input order does not matter
            b[i] = i + 11;     // 11..110
        }
        PercentileDifference.Result r = PercentileDifference.of(a, b, 50, 0.95);
        assertThat(r.a()).as("p50 of 1..100, nearest rank").isEqualTo(50.0);
        assertThat(r.b()).as("p50 of 11..110").isEqualTo(60.0);
        assertThat(r.difference()).as("difference").isEqualTo(10.0);
        assertThat(r.low()).as("low end").isLessThanOrEqualTo(10.0);
        assertThat(r.high()).as("high end").isGreaterThanOrEqualTo(10.0);
        assertThat(a[0]).as("input not reordered").isEqualTo(100.0);
        assertThat(PercentileDifference.of(a, b, 50, 0.95)).as("same seed, same interval").isEqualTo(r);
    }

    @Test
    void tooFewValuesForTheTailGiveTheReasonInsteadOfAnInterval() {
        double[] a = latencies(new Random(1), 200, 100);
        double[] b = latencies(new Random(2), 200, 100);
        PercentileDifference.Result r = PercentileDifference.of(a, b, 99, 0.95);
        assertThat(r.hasInterval()).as("p99 of 200 values has an interval").isFalse();
        assertThat(r.reason()).as("reason")
                .isEqualTo("A has 200 values, too few for a 95% interval of p99 (needs at least 368)");
        assertThat(r.difference()).as("difference still given").isEqualTo(r.b() - r.a());
        PercentileDifference.Result empty = PercentileDifference.of(new double[0], b, 50, 0.95);
        assertThat(empty.reason()).as("empty A").startsWith("A has 0 values");
        assertThatThrownBy(() -> PercentileDifference.of(a, b, 100, 0.95)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Above COUNTING_MAX the order statistic's index is drawn from its exact distribution: the same answers. */
    @Test
    void largeSamplesDrawTheOrderStatisticDirectlyWithTheSameDistribution() {
        // the drawn index's mean and spread match counting draws (n = 1,000, p95: k = 949)
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        int n = 1_000;
        int k = 949;
        int rounds = 4_000;
        double sumDirect = 0;
        double sumSqDirect = 0;
        double sumCount = 0;
        double sumSqCount = 0;
        int[] counts = new int[n];
        for (int r = 0; r < rounds; r++) {
            int j = PercentileDifference.orderStatisticIndex(n, k, random.nextDouble());
            sumDirect += j;
            sumSqDirect += (double) j * j;
            java.util.Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[random.nextInt(n)]++;
            }
            int seen = 0;
            int c = 0;
            while ((seen += counts[c]) <= k) {
                c++;
            }
            sumCount += c;
            sumSqCount += (double) c * c;
        }
        double meanDirect = sumDirect / rounds;
        double meanCount = sumCount / rounds;
        double sdDirect = Math.sqrt(sumSqDirect / rounds - meanDirect * meanDirect);
        double sdCount = Math.sqrt(sumSqCount / rounds - meanCount * meanCount);
        assertThat(meanDirect).as("mean index, direct vs counting %s", meanCount).isCloseTo(meanCount,
                org.assertj.core.data.Offset.offset(0.5));
        assertThat(sdDirect).as("spread of the index, direct vs counting %s", sdCount).isCloseTo(sdCount,
                org.assertj.core.data.Offset.offset(0.05 * sdCount));
        // and whole comparisons above the limit behave
        Random rnd = new Random(13);
        double[] a = latencies(rnd, 30_000, 100);
        double[] same = latencies(rnd, 30_000, 100);
        double[] slower = latencies(rnd, 30_000, 103);
        PercentileDifference.Result s = PercentileDifference.of(a, same, 95, 0.95);
        assertThat(ChangeVerdict.of(s.low(), s.high(), true, 0)).as("same distribution, 30,000 values: %s", s)
                .isEqualTo(ChangeVerdict.WITHIN_NOISE);
        PercentileDifference.Result r = PercentileDifference.of(a, slower, 50, 0.95);
        assertThat(ChangeVerdict.of(r.low(), r.high(), true, 0)).as("+3%% at 30,000 values: %s", r)
                .isEqualTo(ChangeVerdict.REGRESSION);
    }

    @Test
    void verdictNeedsTheWholeIntervalBeyondTheMargin() {
        assertThat(ChangeVerdict.of(1, 5, true, 0)).as("latency up").isEqualTo(ChangeVerdict.REGRESSION);
        assertThat(ChangeVerdict.of(-5, -1, true, 0)).as("latency down").isEqualTo(ChangeVerdict.IMPROVEMENT);
        assertThat(ChangeVerdict.of(-1, 5, true, 0)).as("straddles 0").isEqualTo(ChangeVerdict.WITHIN_NOISE);
        assertThat(ChangeVerdict.of(0, 5, true, 0)).as("touches 0").isEqualTo(ChangeVerdict.WITHIN_NOISE);
        assertThat(ChangeVerdict.of(-5, -1, false, 0)).as("throughput down").isEqualTo(ChangeVerdict.REGRESSION);
        assertThat(ChangeVerdict.of(1, 5, true, 2)).as("inside the margin").isEqualTo(ChangeVerdict.WITHIN_NOISE);
        assertThat(ChangeVerdict.of(3, 5, true, 2)).as("beyond the margin").isEqualTo(ChangeVerdict.REGRESSION);
        assertThat(ChangeVerdict.WITHIN_NOISE.label()).isEqualTo("within noise");
        assertThatThrownBy(() -> ChangeVerdict.of(2, 1, true, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

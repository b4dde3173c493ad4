package io.capstream.loadgen.arrival;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.capstream.schemas.load.RateSchedule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The arrival shapes of issue 30: gamma gaps ({@code --burstiness}) and a {@code --rate-schedule} followed by time
 * rescaling, for whole runs and for the shares of a distributed run. Statistical checks use fixed seeds and
 * tolerances of several standard errors, never the wall clock.
 */
class ArrivalScheduleShapesTest {
    private static final int DRAWS = 200_000;

    private static ArrivalProcess gamma(double rate, double b) {
        return new ArrivalProcess(ArrivalMode.GAMMA, rate, b, null);
    }

    /** @return mean and coefficient of variation of the gaps between {@code n} successive arrivals, s */
    private static double[] gapStats(ArrivalSchedule s, int n) {
        long prev = s.next();
        double sum = 0;
        double sumSq = 0;
        for (int i = 1; i < n; i++) {
            long t = s.next();
            double g = (t - prev) / 1e9;
            sum += g;
            sumSq += g * g;
            prev = t;
        }
        double mean = sum / (n - 1);
        double var = sumSq / (n - 1) - mean * mean;
        return new double[] {mean, Math.sqrt(var) / mean};
    }

    @ParameterizedTest(name = "burstiness {0}")
    @ValueSource(doubles = {0.25, 0.5, 1, 4})
    void gammaGapsHaveMeanOneOverRateAndCvOneOverSqrtB(double b) {
        double[] stats = gapStats(new ArrivalSchedule(gamma(40, b), 7), DRAWS);
        double cv = 1 / Math.sqrt(b);
        // standard error of the mean gap: cv/rate/sqrt(n) (0.1% of 25 ms at B = 0.25): 5% is many of them
        assertThat(stats[0]).as("mean gap, s, at 40 req/s (B = %s)", b).isCloseTo(1 / 40.0, within(0.05 / 40));
        // the sample CV of 200,000 gamma gaps is within a few % of 1/sqrt(B) (the heavier tail of B = 0.25 the most)
        assertThat(stats[1]).as("coefficient of variation of the gaps (B = %s)", b).isCloseTo(cv, within(0.04 * cv));
    }

    @Test
    void gammaIsSeededAndStartsAtZero() {
        ArrivalSchedule a = new ArrivalSchedule(gamma(10, 0.5), 42);
        ArrivalSchedule b = new ArrivalSchedule(gamma(10, 0.5), 42);
        ArrivalSchedule other = new ArrivalSchedule(gamma(10, 0.5), 43);
        assertThat(a.next()).as("first arrival").isZero();
        b.next();
        other.next();
        List<Long> fromA = new ArrayList<>();
        List<Long> fromB = new ArrayList<>();
        List<Long> fromOther = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            fromA.add(a.next());
            fromB.add(b.next());
            fromOther.add(other.next());
        }
        assertThat(fromB).as("the same seed draws the same arrivals").isEqualTo(fromA);
        assertThat(fromOther).as("another seed draws others").isNotEqualTo(fromA);
        assertThat(fromA).as("arrival times never decrease").isSorted();
    }

    @Test
    void aGammaOfShapeBelowOneIsBurstierThanPoisson() {
        // the fraction of gaps shorter than a tenth of the mean: 1 - e^-0.1 = 9.5% for Poisson, ~39% for B = 0.25
        double[] poisson = shortGaps(new ArrivalSchedule(ArrivalMode.POISSON, 10, 3));
        double[] bursty = shortGaps(new ArrivalSchedule(gamma(10, 0.25), 3));
        assertThat(poisson[0]).as("share of Poisson gaps < mean/10").isCloseTo(0.095, within(0.01));
        assertThat(bursty[0]).as("share of gamma(0.25) gaps < mean/10").isGreaterThan(0.3);
    }

    private static double[] shortGaps(ArrivalSchedule s) {
        long prev = s.next();
        int shortOnes = 0;
        for (int i = 0; i < 50_000; i++) {
            long t = s.next();
            if (t - prev < 10_000_000L) {
                shortOnes++;
            }
            prev = t;
        }
        return new double[] {shortOnes / 50_000.0};
    }

    @Test
    void aConstantProcessOnAScheduleSendsLambdaArrivalsPerSegment() {
        RateSchedule r = RateSchedule.parse("0s:2,60s:20,120s:20,180s:2");
        ArrivalSchedule s = new ArrivalSchedule(new ArrivalProcess(ArrivalMode.CONSTANT, 0, null, r), 0);
        int[] perSegment = new int[3];
        while (true) {
            double t = s.next() / 1e9;
            if (t >= 180) {
                break;
            }
            perSegment[(int) (t / 60)]++;
        }
        // Λ: 0-60 s (2 -> 20 req/s) 660, 60-120 s 1200, 120-180 s 660; arrival k at Λ⁻¹(k), the first at 0
        assertThat(perSegment).as("arrivals per 60 s segment").containsExactly(660, 1200, 660);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"poisson", "gamma"})
    void aRandomProcessOnAScheduleFollowsLambda(String mode) {
        RateSchedule r = RateSchedule.parse("0s:2,60s:20,120s:20,180s:2");
        ArrivalMode m = ArrivalMode.parse(mode);
        double[] expected = {660, 1200, 660};
        double[] sum = new double[3];
        int runs = 40;
        for (int seed = 0; seed < runs; seed++) {
            ArrivalSchedule s = new ArrivalSchedule(new ArrivalProcess(m, 0, m == ArrivalMode.GAMMA ? 0.5 : null, r),
                    seed);
            while (true) {
                double t = s.next() / 1e9;
                if (t >= 180) {
                    break;
                }
                sum[(int) (t / 60)]++;
            }
        }
        for (int i = 0; i < 3; i++) {
            // 40 runs of ~660-1200 arrivals: the mean count per segment is within about 1% of Λ (CV 1.4 at B = 0.5)
            assertThat(sum[i] / runs).as("%s: mean arrivals in segment %d", mode, i)
                    .isCloseTo(expected[i], within(0.03 * expected[i]));
        }
    }

    @Test
    void aScheduleEndingAtRateZeroOffersAFiniteNumberOfArrivals() {
        // 10 s at 10 req/s, then 10 -> 0 req/s over 20 s: Λ(30 s) = 100 + 100 = 200
        RateSchedule r = RateSchedule.parse("0s:10,10s:10,30s:0");
        ArrivalProcess constant = new ArrivalProcess(ArrivalMode.CONSTANT, 0, null, r);
        // arrival u at Λ⁻¹(u) for u = 0, 1, ..., 200: the last one at 30 s, where the schedule's offer is complete
        assertThat(ArrivalSchedule.countWithin(constant, 0, Long.MAX_VALUE, 100_000))
                .as("arrivals a constant process gets from a schedule offering 200").isEqualTo(201);
        ArrivalSchedule s = new ArrivalSchedule(constant, 0);
        for (int i = 0; i <= 200; i++) {
            assertThat(s.next()).as("arrival %d", i).isLessThanOrEqualTo(30_000_000_000L);
        }
        assertThat(s.next()).as("after the last arrival").isEqualTo(ArrivalSchedule.END);
        assertThat(s.next()).as("and stays there").isEqualTo(ArrivalSchedule.END);
        int gammaCount = ArrivalSchedule.countWithin(new ArrivalProcess(ArrivalMode.GAMMA, 0, 0.25, r), 5,
                Long.MAX_VALUE, 100_000);
        // CV 2: the count of a gamma renewal process over Λ = 200 has sd about 2 * sqrt(200) = 28
        assertThat(gammaCount).as("gamma arrivals offered by the schedule").isBetween(110, 290);
        assertThat(ArrivalSchedule.countWithin(constant, 0, 10_000_000_000L, 100_000))
                .as("arrivals strictly before 10 s").isEqualTo(100);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"constant", "poisson", "gamma"})
    void sharesPartitionTheGlobalScheduleWithBurstinessAndARateSchedule(String mode) {
        ArrivalMode m = ArrivalMode.parse(mode);
        RateSchedule r = RateSchedule.parse("0s:5,2s:40,4s:0");
        ArrivalProcess p = new ArrivalProcess(m, 0, m == ArrivalMode.GAMMA ? 0.25 : null, r);
        List<Long> global = new ArrayList<>();
        ArrivalSchedule g = new ArrivalSchedule(p, 11);
        for (long t = g.next(); t != ArrivalSchedule.END; t = g.next()) {
            global.add(t);
        }
        assertThat(global).as("the global schedule").hasSizeGreaterThan(50);
        int shares = 3;
        List<Long> merged = new ArrayList<>();
        for (int share = 0; share < shares; share++) {
            ArrivalSchedule s = ArrivalSchedule.ofShare(p, 11, share, shares);
            for (int i = share; i < global.size(); i += shares) {
                long t = s.next();
                assertThat(t).as("share %d, global index %d", share, i).isEqualTo(global.get(i));
                merged.add(t);
            }
            assertThat(s.next()).as("share %d after the schedule's last arrival", share).isEqualTo(ArrivalSchedule.END);
        }
        assertThat(merged).as("the shares together").hasSameSizeAs(global).containsExactlyInAnyOrderElementsOf(global);
    }

    @Test
    void withoutAScheduleTheGammaRateIsTheConstantOne() {
        assertThat(new ArrivalProcess(ArrivalMode.GAMMA, 4, 0.25, null).configuredCv()).isEqualTo(2.0);
        assertThat(ArrivalProcess.of(ArrivalMode.POISSON, 4).configuredCv()).isEqualTo(1.0);
        assertThatThrownBy(() -> new ArrivalProcess(ArrivalMode.GAMMA, 4, null, null))
                .hasMessageContaining("burstiness > 0");
        assertThatThrownBy(() -> new ArrivalProcess(ArrivalMode.GAMMA, 4, -1.0, null))
                .hasMessageContaining("burstiness > 0");
        assertThatThrownBy(() -> new ArrivalProcess(ArrivalMode.POISSON, 0, null, null))
                .hasMessageContaining("rate must be > 0");
    }
}

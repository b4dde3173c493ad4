package io.capstream.aggregator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.capstream.aggregator.slo.Comparison;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RepeatIntervalTest {
    /** Three repeats 10, 12, 14: mean 12, s = 2, t(2, 0.975) = 4.302653, half width 4.302653 * 2 / sqrt(3). */
    @Test
    void threeRepeatsGiveTheStudentTInterval() {
        RepeatInterval r = RepeatInterval.of(new double[] {10, 12, 14}, 0.95);
        double half = 4.302652729749464 * 2 / Math.sqrt(3);
        assertThat(r.mean()).as("mean").isEqualTo(12.0);
        assertThat(r.low()).as("low").isCloseTo(12 - half, within(1e-9));
        assertThat(r.high()).as("high").isCloseTo(12 + half, within(1e-9));
        assertThat(r.cv()).as("CV = 2 / 12").isCloseTo(2.0 / 12, within(1e-12));
        assertThat(r.text()).as("text").isEqualTo("12.0 [7.0, 17.0] CV 16.7%");
    }

    @Test
    void anSloPassesOnlyWhenTheWholeIntervalIsOnTheGoodSide() {
        RepeatInterval r = RepeatInterval.of(new double[] {10, 12, 14}, 0.95); // [7.03, 16.97]
        assertThat(r.decide(v -> Comparison.LE.holds(v, 20))).as("<= 20").isEqualTo(RepeatInterval.SloSide.MET);
        assertThat(r.decide(v -> Comparison.LE.holds(v, 13))).as("<= 13: mean 12 meets it, the interval does not")
                .isEqualTo(RepeatInterval.SloSide.STRADDLES);
        assertThat(r.decide(v -> Comparison.LE.holds(v, 5))).as("<= 5").isEqualTo(RepeatInterval.SloSide.MISSED);
        assertThat(r.decide(v -> Comparison.GE.holds(v, 5))).as(">= 5").isEqualTo(RepeatInterval.SloSide.MET);
        assertThat(r.decide(v -> Comparison.GE.holds(v, 20))).as(">= 20").isEqualTo(RepeatInterval.SloSide.MISSED);
        RepeatInterval one = RepeatInterval.of(new double[] {12}, 0.95);
        assertThat(one.hasInterval()).as("one repeat").isFalse();
        assertThat(one.decide(v -> Comparison.LE.holds(v, 100))).as("one repeat cannot decide").isEqualTo(
                RepeatInterval.SloSide.STRADDLES);
        assertThat(one.text()).isEqualTo("12.0 (1 run)");
        assertThatThrownBy(() -> RepeatInterval.of(new double[0], 0.95)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Coverage by simulation: about 95% of the intervals of 3 normal repeats contain the true mean. */
    @Test
    void coversTheTrueMeanAboutNinetyFivePercentOfTheTime() {
        Random random = new Random(3);
        int covered = 0;
        int trials = 4_000;
        for (int t = 0; t < trials; t++) {
            double[] v = {100 + 10 * random.nextGaussian(), 100 + 10 * random.nextGaussian(),
                100 + 10 * random.nextGaussian()};
            RepeatInterval r = RepeatInterval.of(v, 0.95);
            if (r.low() <= 100 && 100 <= r.high()) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).as("coverage (%d of %d)", covered, trials).isBetween(0.93, 0.97);
    }
}

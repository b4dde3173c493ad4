package io.capstream.schemas.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RateScheduleTest {
    private final RateSchedule ramp = RateSchedule.parse("0s:2,60s:20,120s:20,180s:2");

    @Test
    void readsTheIssuesExampleAndWritesItBackCanonically() {
        assertThat(ramp.points()).as("points").hasSize(4);
        assertThat(ramp.canonical()).isEqualTo("0s:2,60s:20,120s:20,180s:2");
        assertThat(RateSchedule.parse("0:1.5, 500ms:3, 1m:0").canonical()).isEqualTo("0s:1.5,0.5s:3,60s:0");
    }

    @Test
    void rateIsLinearBetweenPointsAndHeldAfterTheLast() {
        assertThat(ramp.rateAt(30)).as("halfway up the ramp").isCloseTo(11, within(1e-9));
        assertThat(ramp.rateAt(90)).as("plateau").isCloseTo(20, within(1e-9));
        assertThat(ramp.rateAt(500)).as("after the last point").isCloseTo(2, within(1e-9));
    }

    @Test
    void expectedArrivalsIsTheIntegralAndTimeOfItsInverse() {
        // 0..60: (2 + 20) / 2 * 60 = 660; 60..120: 1200; 120..180: 660; then 2/s
        assertThat(ramp.expectedArrivals(60)).isCloseTo(660, within(1e-9));
        assertThat(ramp.expectedArrivals(180)).isCloseTo(2520, within(1e-9));
        assertThat(ramp.expectedArrivals(190)).isCloseTo(2540, within(1e-9));
        for (double t : new double[] {0, 0.5, 7, 30, 59.9, 60, 95, 150, 180, 250}) {
            assertThat(ramp.timeOf(ramp.expectedArrivals(t))).as("timeOf(expectedArrivals(%s))", t)
                    .isCloseTo(t, within(1e-6));
        }
    }

    @Test
    void aScheduleEndingAtZeroNeverOffersMoreThanItsIntegral() {
        RateSchedule stop = RateSchedule.parse("0s:10,10s:0");
        assertThat(stop.expectedArrivals(1000)).isCloseTo(50, within(1e-9));
        assertThat(stop.timeOf(51)).isInfinite();
    }

    @Test
    void badSchedulesAreOneLineUsageErrors() {
        assertThatThrownBy(() -> RateSchedule.parse("0s:2,60s:20,30s:5")).hasMessage(
                "--rate-schedule times must increase: 30s follows 60s");
        assertThatThrownBy(() -> RateSchedule.parse("0s:-1")).hasMessageContaining("rates must be >= 0");
        assertThatThrownBy(() -> RateSchedule.parse("0s:0,5s:0")).hasMessageContaining("a rate > 0");
        assertThatThrownBy(() -> RateSchedule.parse("abc")).hasMessageContaining("TIME:RATE");
        assertThatThrownBy(() -> RateSchedule.parse("5x:3")).hasMessageContaining("unit ms, s or m");
    }
}

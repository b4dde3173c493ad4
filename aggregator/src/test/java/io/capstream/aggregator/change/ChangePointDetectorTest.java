package io.capstream.aggregator.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: the change-point detector on synthetic series of window p95 TTFTs (lognormal requests, sigma 0.5, median
 * 300 ms, nearest-rank p95 of each window's requests): the detection delay of a 20% shift and the false alarms per
 * 1,000 stable windows, as documented in docs/user-guide.md (Change points).
 */
class ChangePointDetectorTest {
    private static double p95(Random r, int n, double median) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = median * Math.exp(0.5 * r.nextGaussian());
        }
        Arrays.sort(v);
        return v[(int) Math.ceil(0.95 * n) - 1];
    }

    /** @return detection delays (windows, 1 = the first shifted window; 999 = not within 100) of a 20% rise */
    private static int[] delays(int n, int trials, long seed) {
        ChangePointDetector d = new ChangePointDetector();
        Random r = new Random(seed);
        int[] out = new int[trials];
        for (int t = 0; t < trials; t++) {
            CusumState s = new CusumState();
            for (int i = 0; i < 60; i++) {
                d.accept(s, i, p95(r, n, 300));
            }
            s.up = 0;
            s.down = 0; // a false alarm just before the shift is not its detection
            out[t] = 999;
            for (int i = 60; i < 160; i++) {
                ChangePointDetector.Shift shift = d.accept(s, i, p95(r, n, 360));
                if (shift != null && shift.up()) {
                    out[t] = i - 59;
                    break;
                }
            }
        }
        Arrays.sort(out);
        return out;
    }

    private static double falseAlarmsPerThousand(int n, int series, long seed) {
        ChangePointDetector d = new ChangePointDetector();
        Random r = new Random(seed);
        int alarms = 0;
        for (int k = 0; k < series; k++) {
            CusumState s = new CusumState();
            for (int i = 0; i < 1000; i++) {
                if (d.accept(s, i, p95(r, n, 300)) != null) {
                    alarms++;
                }
            }
        }
        return alarms / (double) series;
    }

    @Test
    void aTwentyPercentShiftInTwoHundredRequestWindowsIsFoundWithinEightWindowsNineTimesInTen() {
        int[] d = delays(200, 100, 1);
        assertThat(d[50]).as("median delay, windows: " + Arrays.toString(d)).isLessThanOrEqualTo(5);
        assertThat(d[90]).as("90th percentile delay, windows: " + Arrays.toString(d)).isLessThanOrEqualTo(8);
    }

    @Test
    void aTwentyPercentShiftInFortyRequestWindowsTakesLonger() {
        int[] d = delays(40, 100, 2);
        assertThat(d[50]).as("median delay, windows: " + Arrays.toString(d)).isLessThanOrEqualTo(12);
        assertThat(Arrays.stream(d).filter(x -> x <= 30).count()).as("found within 30 windows, of 100: "
                + Arrays.toString(d)).isGreaterThanOrEqualTo(85);
    }

    @Test
    void stableSeriesRaiseFewFalseAlarms() {
        assertThat(falseAlarmsPerThousand(200, 20, 3)).as("false alarms per 1,000 stable 200-request windows")
                .isLessThanOrEqualTo(6);
        assertThat(falseAlarmsPerThousand(40, 20, 4)).as("false alarms per 1,000 stable 40-request windows")
                .isLessThanOrEqualTo(6);
    }

    @Test
    void oneOutlyingWindowIsNoChange() {
        ChangePointDetector d = new ChangePointDetector();
        for (long seed = 6; seed < 26; seed++) {
            Random r = new Random(seed);
            CusumState s = new CusumState();
            for (int i = 0; i < 40; i++) {
                d.accept(s, i, p95(r, 200, 300));
            }
            assertThat(d.accept(s, 40, 10 * p95(r, 200, 300))).as("a single window 10x higher (e.g. a restart), seed "
                    + seed).isNull();
            for (int i = 41; i < 44; i++) {
                assertThat(d.accept(s, i, p95(r, 200, 300))).as("normal window " + i + " after it, seed " + seed).isNull();
            }
        }
    }

    @Test
    void aShiftReportsItsLevelsWindowsAndConfidence() {
        ChangePointDetector d = new ChangePointDetector();
        Random r = new Random(5);
        CusumState s = new CusumState();
        for (int i = 0; i < 40; i++) {
            assertThat(d.accept(s, i * 60_000L, p95(r, 200, 300))).as("stable window " + i).isNull();
        }
        ChangePointDetector.Shift shift = null;
        int i = 40;
        while (shift == null && i < 80) {
            shift = d.accept(s, i * 60_000L, p95(r, 200, 400));
            i++;
        }
        assertThat(shift).as("a 33% rise is found").isNotNull();
        assertThat(shift.up()).isTrue();
        assertThat(shift.relative()).as("relative change").isBetween(0.2, 0.5);
        assertThat(shift.before()).as("level before, ms (true p95 %.0f)", 300 * Math.exp(0.5 * 1.645)).isBetween(600.0, 750.0);
        assertThat(shift.changeStartMs()).as("estimated change (true: window 40)").isBetween(38 * 60_000L, 41 * 60_000L);
        assertThat(shift.confidence()).as("Mann-Whitney confidence").isGreaterThan(0.95);
        assertThat(shift.referenceCount()).isEqualTo(30);
        CusumState back = CusumState.fromBytes(s.toBytes());
        assertThat(back.recent).as("state survives its byte form").isEqualTo(s.recent);
        assertThat(back.lastStart).isEqualTo(s.lastStart);
    }
}

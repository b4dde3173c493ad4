package io.capstream.schemas.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PythonFloatFormat}'s fast path for values with few decimals (issue 31: the report's float formatting) writes
 * exactly what the general path (Schubfach's shortest digits, CPython's rules) writes, for the shapes a report holds
 * (integers, milliseconds with a few decimals, ratios) and for random values and bit patterns around them.
 */
class PythonFloatFastPathTest {
    private static String general(double v) {
        StringBuilder sb = new StringBuilder();
        PythonFloatFormat.appendShortest(sb, v, Math.abs(v));
        return sb.toString();
    }

    private static void same(double v) {
        assertThat(PythonFloatFormat.repr(v)).as("repr of %s (bits %x)", v, Double.doubleToRawLongBits(v))
                .isEqualTo(general(v));
    }

    @Test
    void fewDecimalValuesAndTheirNeighboursAreWrittenAsTheGeneralPathWritesThem() {
        SplittableRandom r = new SplittableRandom(31);
        for (int i = 0; i < 400_000; i++) {
            int k = r.nextInt(0, 12);
            double x = Math.pow(10, r.nextDouble(-4, 15.1));
            double v = Math.rint(x * Math.pow(10, k)) / Math.pow(10, k);
            if (v == 0.0) {
                continue;
            }
            same(v);
            same(-v);
            same(Math.nextUp(v));
            same(Math.nextDown(v));
            same(x);
        }
        for (double v : new double[] {1e-4, 0.0001, 0.00012, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0, 2.5, 3613.0, 999.999,
                1e15, 0x1p50, Math.nextDown(0x1p50), 1125899906842623.5, 123456.789012, 1.0 / 3, 2.0 / 3, 100.0 / 7}) {
            same(v);
            same(-v);
        }
    }

    @Test
    void randomBitPatternsInTheFastRangeAreWrittenAsTheGeneralPathWritesThem() {
        SplittableRandom r = new SplittableRandom(17);
        long lo = Double.doubleToRawLongBits(1e-4);
        long hi = Double.doubleToRawLongBits(0x1p50);
        for (int i = 0; i < 400_000; i++) {
            same(Double.longBitsToDouble(r.nextLong(lo, hi)));
        }
    }
}

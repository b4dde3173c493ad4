package io.capstream.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The grid's steps from --concurrency and --rate: lists, ranges, and one line per bad value. */
class AxisValuesTest {
    private static List<Double> ok(LoadAxis axis, String text) {
        AxisValues.Parsed p = AxisValues.parse(axis, text);
        assertEquals(List.of(), p.problems(), text);
        return p.values();
    }

    private static List<String> bad(LoadAxis axis, String text) {
        AxisValues.Parsed p = AxisValues.parse(axis, text);
        assertEquals(List.of(), p.values(), text);
        return p.problems();
    }

    @Test
    void listsKeepTheirOrderAndASingleValueIsOneStep() {
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0), ok(LoadAxis.CONCURRENCY, "1,2,4,8"));
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0), ok(LoadAxis.CONCURRENCY, " 1, 2,4 ,8,16,32 "));
        assertEquals(List.of(8.0), ok(LoadAxis.CONCURRENCY, "8"));
        assertEquals(List.of(2.0, 4.5, 8.0), ok(LoadAxis.RATE, "2,4.5,8"));
        assertEquals(List.of(0.25), ok(LoadAxis.RATE, "0.25"));
    }

    @Test
    void geometricAndArithmeticRangesIncludeTheirEnd() {
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0), ok(LoadAxis.CONCURRENCY, "1:32:x2"));
        assertEquals(List.of(2.0, 4.0, 8.0, 16.0, 32.0, 64.0), ok(LoadAxis.RATE, "2:64:x2"));
        assertEquals(List.of(2.0, 4.0, 6.0, 8.0, 10.0), ok(LoadAxis.RATE, "2:10:+2"));
        assertEquals(List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0), ok(LoadAxis.CONCURRENCY, "1:10:+1"));
        assertEquals(List.of(2.0, 4.0, 8.0), ok(LoadAxis.RATE, "2:12:x2"), "the end is a bound, not a step");
        assertEquals(List.of(0.1, 0.2, 0.3, 0.4, 0.5), ok(LoadAxis.RATE, "0.1:0.5:+0.1"), "no float drift");
        assertEquals(List.of(5.0), ok(LoadAxis.CONCURRENCY, "5:5:x2"));
    }

    @Test
    void aGeometricConcurrencyRangeIsRoundedToWholeSlotsWithoutRepeats() {
        // 1, 1.5, 2.25, 3.375, 5.06, 7.59 -> 1, 2, 2, 3, 5, 8
        assertEquals(List.of(1.0, 2.0, 3.0, 5.0, 8.0), ok(LoadAxis.CONCURRENCY, "1:8:x1.5"));
    }

    @Test
    void everyBadValueIsOneLine() {
        assertEquals(List.of("--concurrency: 0 is not positive; every load must be > 0",
                "--concurrency: 2.5 is not a whole number of slots",
                "--concurrency: 'abc' is not a number",
                "--concurrency: 200000 exceeds 100000 slots"), bad(LoadAxis.CONCURRENCY, "0,2.5,abc,200000,4"));
        assertEquals(List.of("--rate: -1 is not positive; every load must be > 0"), bad(LoadAxis.RATE, "-1"));
        assertEquals(List.of("--rate: '' is not a number"), bad(LoadAxis.RATE, "2,,4"));
        assertEquals(List.of("--concurrency: no value given; expected a list such as 1,2,4,8 or a range such as 1:32:x2"),
                bad(LoadAxis.CONCURRENCY, " "));
    }

    @Test
    void badRangesAreNamed() {
        assertEquals(List.of("--rate: range 64:2:x2 descends; START must not exceed END"), bad(LoadAxis.RATE, "64:2:x2"));
        assertEquals(List.of("--rate: range factor x1 must be > 1"), bad(LoadAxis.RATE, "2:64:x1"));
        assertEquals(List.of("--rate: range step +0 must be > 0"), bad(LoadAxis.RATE, "2:64:+0"));
        assertEquals(List.of("--rate: bad range '2:64'; expected START:END:xFACTOR (geometric, e.g. 2:64:x2) or"
                + " START:END:+STEP (arithmetic, e.g. 2:10:+2)"), bad(LoadAxis.RATE, "2:64"));
        assertEquals(List.of("--concurrency: 0.5 is not a whole number of slots"), bad(LoadAxis.CONCURRENCY, "0.5:8:x2"));
        assertEquals(List.of("--concurrency: range 1:1000:+1 gives 1000 steps, at most 64"),
                bad(LoadAxis.CONCURRENCY, "1:1000:+1"));
        assertEquals(List.of("--rate: range 1:1e12:+0.001 gives over a billion steps, at most 64"),
                bad(LoadAxis.RATE, "1:1e12:+0.001"));
    }

    @Test
    void moreThanSixtyFourListedStepsAreRefused() {
        String many = String.join(",", java.util.Collections.nCopies(65, "1"));
        assertEquals(List.of("--concurrency: 65 steps, at most 64"), bad(LoadAxis.CONCURRENCY, many));
    }

    @Test
    void loadsAreFormattedAsTheyAreWritten() {
        assertEquals("8", LoadAxis.CONCURRENCY.format(8));
        assertEquals("2.5", LoadAxis.RATE.format(2.5));
        assertEquals("64", LoadAxis.RATE.format(64));
        assertEquals("0.333333", LoadAxis.RATE.format(1 / 3.0));
    }
}

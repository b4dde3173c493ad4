package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LengthDistributionTest {
    @Test
    void parsesMeanAndOptionalStddev() {
        assertEquals(new LengthDistribution(512, 0), LengthDistribution.parse("--input-tokens", "512"));
        assertEquals(new LengthDistribution(512, 128), LengthDistribution.parse("--input-tokens", "512,128"));
        assertEquals(new LengthDistribution(100.5, 2), LengthDistribution.parse("--input-tokens", " 100.5 , 2 "));
        assertEquals("512,128", new LengthDistribution(512, 128).label());
    }

    @Test
    void badValuesAreOneLineUsageErrors() {
        assertEquals("--output-tokens must be MEAN or MEAN,STDDEV (tokens), got 'abc'",
                assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("--output-tokens", "abc"))
                        .getMessage());
        assertEquals("--output-tokens must be MEAN or MEAN,STDDEV (tokens), got '1,2,3'",
                assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("--output-tokens", "1,2,3"))
                        .getMessage());
        assertEquals("--input-tokens needs a mean > 0 and a standard deviation >= 0 (tokens), got 0,1",
                assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("--input-tokens", "0,1"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("--input-tokens", "10,-1"));
        assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("--input-tokens", "NaN"));
    }

    @Test
    void aZeroStddevGivesTheMeanForEveryRequest() {
        assertArrayEquals(new int[] {100, 100, 100}, new LengthDistribution(100, 0).sample(3, 7, 1, 1, 1000));
        assertArrayEquals(new int[] {101, 101}, new LengthDistribution(100.5, 0).sample(2, 7, 1, 1, 1000));
    }

    @Test
    void drawsAreDeterministicPerSeedAndSaltAndClamped() {
        LengthDistribution d = new LengthDistribution(100, 30);
        int[] a = d.sample(1000, 42, LengthDistribution.INPUT_SALT, 1, 65536);
        assertArrayEquals(a, d.sample(1000, 42, LengthDistribution.INPUT_SALT, 1, 65536));
        assertFalse(Arrays.equals(a, d.sample(1000, 43, LengthDistribution.INPUT_SALT, 1, 65536)));
        assertFalse(Arrays.equals(a, d.sample(1000, 42, LengthDistribution.OUTPUT_SALT, 1, 65536)));
        double mean = Arrays.stream(a).average().orElseThrow();
        assertTrue(Math.abs(mean - 100) < 3, "mean " + mean);
        double sd = Math.sqrt(Arrays.stream(a).mapToDouble(v -> (v - mean) * (v - mean)).sum() / a.length);
        assertTrue(Math.abs(sd - 30) < 3, "stddev " + sd);
        // java.util.Random's Gaussian is specified by the JDK: these are the same on every JVM
        assertArrayEquals(new int[] {66, 132, 110, 88, 121}, Arrays.copyOf(a, 5));
        int[] wide = new LengthDistribution(5, 100).sample(1000, 1, 2, 1, 20);
        assertEquals(1, Arrays.stream(wide).min().orElseThrow());
        assertEquals(20, Arrays.stream(wide).max().orElseThrow());
    }
}

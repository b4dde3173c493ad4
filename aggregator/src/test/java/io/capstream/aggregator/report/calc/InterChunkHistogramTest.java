package io.capstream.aggregator.report.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.Histogram;
import java.util.List;
import org.junit.jupiter.api.Test;

class InterChunkHistogramTest {

    private static long sum(Histogram h) {
        return h.getCount().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void knownGapsLandInTheirDecileBucketsContiguously() {
        // 1 ms: k = 0; 9.99 ms: k = 9 (just below 10); 10 ms: k = 10 (on the edge: the bucket starting there);
        // 150 ms: k = 21 (log10(150) = 2.176)
        Histogram h = InterChunkHistogram.of(new double[] {150.0, 10.0, 1.0, 9.99});
        assertEquals(22, h.getLowerMs().size(), "k = 0..21, empty buckets between included");
        assertEquals(22, h.getUpperMs().size());
        assertEquals(22, h.getCount().size());
        assertEquals(1.0, h.getLowerMs().get(0));
        assertEquals(1.25893, h.getUpperMs().get(0), "10^0.1 to 6 significant digits");
        assertEquals(7.94328, h.getLowerMs().get(9));
        assertEquals(10.0, h.getUpperMs().get(9));
        assertEquals(10.0, h.getLowerMs().get(10));
        assertEquals(12.5893, h.getUpperMs().get(10));
        assertEquals(125.893, h.getLowerMs().get(21));
        assertEquals(158.489, h.getUpperMs().get(21));
        for (int i = 0; i < 22; i++) {
            long expected = i == 0 || i == 9 || i == 10 || i == 21 ? 1 : 0;
            assertEquals(expected, h.getCount().get(i), "bucket " + i);
            if (i > 0) {
                assertEquals(h.getUpperMs().get(i - 1), h.getLowerMs().get(i), "contiguous at " + i);
            }
        }
        assertEquals(4, sum(h), "the counts sum to the number of gaps");
    }

    @Test
    void zeroGapsHaveTheirOwnBucketBelowTheMicrosecond() {
        Histogram h = InterChunkHistogram.of(new double[] {0.0, 0.001, 0.0015, 0.0});
        assertEquals(List.of(0.0, 0.001, 0.00125893), h.getLowerMs());
        assertEquals(List.of(0.001, 0.00125893, 0.00158489), h.getUpperMs());
        assertEquals(List.of(2L, 1L, 1L), h.getCount());

        Histogram zeros = InterChunkHistogram.of(new double[] {0.0, 0.0});
        assertEquals(List.of(0.0), zeros.getLowerMs());
        assertEquals(List.of(0.001), zeros.getUpperMs());
        assertEquals(List.of(2L), zeros.getCount());
    }

    @Test
    void everyMicrosecondGapIsCountedAgainstThePublishedEdges() {
        // every gap of 1 us .. 200 ms plus 0 and 30 s: each bucket's count equals a brute-force count
        // with the published (rounded) edges, so no gap falls on the wrong side of an edge
        int n = 200_002;
        double[] gaps = new double[n];
        for (int us = 0; us <= 200_000; us++) {
            gaps[us] = us / 1000.0;
        }
        gaps[n - 1] = 30_000_000 / 1000.0;
        Histogram h = InterChunkHistogram.of(gaps);
        assertEquals(n, sum(h));
        for (int i = 0; i < h.getCount().size(); i++) {
            double lo = h.getLowerMs().get(i);
            double hi = h.getUpperMs().get(i);
            long brute = 0;
            for (double g : gaps) {
                if (lo <= g && g < hi) {
                    brute++;
                }
            }
            assertEquals(brute, h.getCount().get(i), "[" + lo + ", " + hi + ")");
            assertTrue(i == 0 || h.getLowerMs().get(i) > h.getLowerMs().get(i - 1));
        }
        int last = h.getLowerMs().size() - 1;
        assertEquals(25118.9, h.getLowerMs().get(last), "30 s = 10^4.477 ms: the top bucket is k = 44");
        assertEquals(31622.8, h.getUpperMs().get(last));
        assertEquals(1L, h.getCount().get(last));
        assertEquals(0.0, h.getLowerMs().get(0), "the zero gap's bucket first");
        assertEquals(1L + 44 + 30 + 1, h.getCount().size(), "zero bucket + k = -30..44");
    }

    @Test
    void noGapsNoHistogramAndNonFiniteGapsAreRefused() {
        assertNull(InterChunkHistogram.of(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> InterChunkHistogram.of(new double[] {1.0, Double.NaN}));
        assertEquals(1000.0, InterChunkHistogram.edge(30));
        assertEquals(0.001, InterChunkHistogram.edge(-30));
        assertEquals(3.16228, InterChunkHistogram.edge(5));
    }
}

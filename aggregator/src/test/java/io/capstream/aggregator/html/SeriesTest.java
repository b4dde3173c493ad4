package io.capstream.aggregator.html;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesTest {
    private static final double N = Double.NaN;

    /** r0 ok [0, 100 first, 400]; r1 TimeoutError [50, -, 300]; r2 ok [200, 250, 500]. */
    private static Timeline three() {
        return new Timeline(new int[] {0, 1, 2}, new double[] {0, 50, 200}, new double[] {100, N, 250},
                new double[] {400, 300, 500}, new String[] {null, "TimeoutError", null});
    }

    @Test
    void cdfCountsFractionsAtOrBelowIgnoringNaN() {
        Cdf c = Cdf.of(new double[] {3, 1, N, 2, 2});
        assertEquals(4, c.count());
        assertEquals(0.0, c.fractionAtOrBelow(0.5));
        assertEquals(0.75, c.fractionAtOrBelow(2));
        assertEquals(1.0, c.fractionAtOrBelow(3));
        assertTrue(Double.isNaN(Cdf.of(new double[] {N}).fractionAtOrBelow(1)));
    }

    @Test
    void cdfSamplesTheMinimumAndNearestRankValuesAtEvenlySpacedRanks() {
        double[] v = new double[10];
        for (int i = 0; i < 10; i++) {
            v[i] = 10 - i; // 10..1, unsorted
        }
        assertArrayEquals(new double[] {1, 4, 7, 10}, Cdf.of(v).sample(4));
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, Cdf.of(v).sample(10));
        double[] big = new double[100_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = i + 1;
        }
        double[] s = Cdf.of(big).sample(2_000);
        assertEquals(2_000, s.length);
        assertEquals(1.0, s[0]);
        assertEquals(51.0, s[1], "rank ceil(100000 / 1999) = 51");
        assertEquals(100_000.0, s[1_999]);
        assertThrows(IllegalArgumentException.class, () -> Cdf.of(big).sample(1));
    }

    @Test
    void cdfChartSharesXAndEvaluatesEachDistributionThere() {
        Chart c = Cdf.chart("cdf", "t", "ms", List.of("a", "b"),
                List.of(Cdf.of(new double[] {1, 2, 3, 4}), Cdf.of(new double[] {4, 2})), 2_000);
        assertEquals(Chart.Kind.STEP, c.kind());
        assertArrayEquals(new double[] {1, 2, 3, 4}, c.x());
        assertArrayEquals(new double[] {0.25, 0.5, 0.75, 1}, c.series().get(0).y());
        assertArrayEquals(new double[] {0, 0.5, 0.5, 1}, c.series().get(1).y());
        assertEquals("b", c.series().get(1).label());
    }

    @Test
    void timelineHasOnePointPerEventSortedByTimeWithFailuresByType() {
        TimelineSeries t = TimelineSeries.of("timeline", three(), 20_000);
        assertEquals(1, t.stride());
        assertEquals(3, t.drawn());
        Chart c = t.chart();
        assertEquals(Chart.Kind.POINTS, c.kind());
        assertArrayEquals(new double[] {0, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5}, c.x());
        assertEquals(List.of("start", "first token", "end", "failed: TimeoutError (1)"),
                c.series().stream().map(Chart.Series::label).toList());
        assertEquals(List.of(Chart.Series.Style.DEFAULT, Chart.Series.Style.DEFAULT, Chart.Series.Style.DEFAULT,
                Chart.Series.Style.FAILURE), c.series().stream().map(Chart.Series::style).toList(),
                "failures are drawn so that they stand out");
        assertArrayEquals(new double[] {0, 1, N, 2, N, N, N, N}, c.series().get(0).y());
        assertArrayEquals(new double[] {N, N, 0, N, 2, N, N, N}, c.series().get(1).y());
        assertArrayEquals(new double[] {N, N, N, N, N, N, 0, 2}, c.series().get(2).y());
        assertArrayEquals(new double[] {N, N, N, N, N, 1, N, N}, c.series().get(3).y());
    }

    @Test
    void timelineOfALargeRunDrawsEveryKthRequest() {
        int n = 5;
        int[] idx = {0, 1, 2, 3, 4};
        double[] t = {0, 1, 2, 3, 4};
        TimelineSeries s = TimelineSeries.of("timeline", new Timeline(idx, t, t, t, new String[n]), 2);
        assertEquals(3, s.stride());
        assertEquals(2, s.drawn());
        assertEquals(5, s.total());
        assertArrayEquals(new double[] {0, N, N, 3, N, N}, s.chart().series().get(0).y());
    }

    @Test
    void timelineParsesTheColumnarKeyAndRejectsRaggedArrays() throws Exception {
        JsonNode node = ArtifactJson.parse("{\"request_index\":[0,1],\"start_ms\":[0.0,5.5],\"queue_ms\":[0,0],"
                + "\"first_token_ms\":[10.0,null],\"end_ms\":[20.0,9.0],\"error_type\":[null,\"HTTPError\"]}");
        Timeline t = Timeline.parse(node);
        assertEquals(2, t.size());
        assertEquals(5.5, t.startMs()[1]);
        assertTrue(Double.isNaN(t.firstTokenMs()[1]));
        assertEquals("HTTPError", t.errorType()[1]);
        assertEquals(20.0, t.lastEndMs());
        assertNull(Timeline.parse(null));
        assertNull(Timeline.parse(ArtifactJson.parse("null")));
        assertThrows(IllegalArgumentException.class, () -> Timeline.parse(ArtifactJson.parse(
                "{\"request_index\":[0,1],\"start_ms\":[0.0],\"first_token_ms\":[1,2],\"end_ms\":[1,2]}")));
    }

    @Test
    void throughputSpreadsTokensOverFirstTokenToEndAndCountsCompletionsByEnd() {
        // r0: 20 tokens over [0.5 s, 2.5 s]; r1: 4 tokens at 1.8 s (first token = end); r2 failed at 2.9 s
        Timeline t = new Timeline(new int[] {0, 1, 2}, new double[] {0, 1000, 2000}, new double[] {500, 1800, N},
                new double[] {2500, 1800, 2900}, new String[] {null, null, "HTTPError"});
        ThroughputSeries s = ThroughputSeries.of(t, Map.of(0, 20L, 1, 4L), 600);
        assertEquals(1.0, s.bucketS());
        assertArrayEquals(new double[] {0, 1, 2}, s.startS());
        // the run ends at 2.9 s: the last bucket's rates are over its 0.9 s
        assertArrayEquals(new double[] {5, 14, 5 / 0.9}, s.outputTokS(), 1e-12);
        assertArrayEquals(new double[] {0, 1, 1 / 0.9}, s.completedRps(), 1e-12);
        assertNull(ThroughputSeries.of(t, Map.of(), 600).outputTokS(), "no token counts: no token series");
    }

    @Test
    void theLastBucketIsDrawnOverItsRealWidthAndASliverJoinsTheBucketBefore() {
        // 4 requests end at 0.5, 1.5, 2.5 s and the last one at 3.05 s: the run's last 0.05 s is no bucket of its own
        Timeline sliver = new Timeline(new int[] {0, 1, 2, 3}, new double[] {0, 0, 0, 0}, new double[] {N, N, N, N},
                new double[] {500, 1500, 2500, 3050}, new String[4]);
        ThroughputSeries s = ThroughputSeries.of(sliver, Map.of(), 600);
        assertArrayEquals(new double[] {0, 1, 2}, s.startS(), "[2 s, 3.05 s] is the last bucket");
        assertEquals(3.05, s.endS(), 1e-12);
        assertEquals(1.05, s.lastWidthS(), 1e-12);
        // without the merge, the request ending at 3.05 s was 1 request in 0.05 s: a spike of 20 req/s
        assertArrayEquals(new double[] {1, 1, 2 / 1.05}, s.completedRps(), 1e-12);
        assertArrayEquals(new double[] {0, 1, 2, 3.05}, s.edgesS(), 1e-12, "the step chart's x ends with the run");
        assertArrayEquals(new double[] {1, 1, 2 / 1.05, 2 / 1.05}, ThroughputSeries.stepValues(s.completedRps()),
                1e-12, "the last rate is held to the run's end");

        // a last part of at least half a bucket stays a bucket of its own, its rate over its width
        Timeline half = new Timeline(new int[] {0, 1}, new double[] {0, 0}, new double[] {N, N},
                new double[] {500, 1600}, new String[2]);
        ThroughputSeries h = ThroughputSeries.of(half, Map.of(), 600);
        assertArrayEquals(new double[] {0, 1}, h.startS());
        assertArrayEquals(new double[] {1, 1 / 0.6}, h.completedRps(), 1e-12);
        assertArrayEquals(new double[] {0, 1, 1.6}, h.edgesS(), 1e-12);
    }

    @Test
    void throughputBucketsGrowForLongRuns() {
        Timeline t = new Timeline(new int[] {0, 1}, new double[] {0, 0}, new double[] {0, 999_000},
                new double[] {1_000, 1_000_000}, new String[2]);
        ThroughputSeries s = ThroughputSeries.of(t, Map.of(1, 10L), 600);
        assertEquals(2.0, s.bucketS(), "1000 s in at most 600 buckets");
        assertEquals(500, s.startS().length);
        assertEquals(998.0, s.startS()[499]);
        assertEquals(0.5, s.completedRps()[0], "one completion in a 2 s bucket");
        assertEquals(0.5, s.completedRps()[499]);
        assertEquals(10.0 / 2, s.outputTokS()[499], 1e-12, "all 10 tokens in [999 s, 1000 s]");
    }

    @Test
    void inFlightStepsAtEachDistinctTime() {
        // r0 [0, 400], r1 [50, 300], r2 [200, 500], r3 [400, 600] ms
        Timeline t = new Timeline(new int[] {0, 1, 2, 3}, new double[] {0, 50, 200, 400}, new double[] {N, N, N, N},
                new double[] {400, 300, 500, 600}, new String[4]);
        InFlightSeries s = InFlightSeries.of(t, 100);
        assertArrayEquals(new double[] {0, 0.05, 0.2, 0.3, 0.4, 0.5, 0.6}, s.timeS());
        assertArrayEquals(new double[] {1, 2, 3, 2, 2, 1, 0}, s.inFlight());
        assertEquals(0.0, s.binS());
        InFlightSeries b = InFlightSeries.of(t, 3);
        assertEquals(0.2, b.binS(), 1e-12);
        assertArrayEquals(new double[] {0, 0.2, 0.4}, b.timeS(), 1e-12);
        assertArrayEquals(new double[] {2, 3, 2}, b.inFlight(), "the most in flight per bin");
    }

    @Test
    void histogramReadsBucketsAndMakesALogBarChart() throws Exception {
        HistogramSeries h = HistogramSeries.parse(ArtifactJson.parse(
                "{\"lower_ms\":[1.0,1.2589],\"upper_ms\":[1.2589,1.5849],\"count\":[3,4]}"));
        assertArrayEquals(new double[] {1.0, 1.2589}, h.lowerMs());
        assertArrayEquals(new double[] {3, 4}, h.count());
        assertEquals(7, h.total());
        Chart c = h.chart("hist");
        assertEquals(Chart.Kind.BARS, c.kind());
        assertArrayEquals(new double[] {1.0, 1.2589}, c.x());
        assertNull(HistogramSeries.parse(ArtifactJson.parse("null")));
        assertThrows(IllegalArgumentException.class, () -> HistogramSeries.parse(ArtifactJson.parse(
                "{\"lower_ms\":[1.0,2.0],\"upper_ms\":[2.0],\"count\":[3,4]}")));
    }

    @Test
    void captionsUseOrdinalsAndGroupedCounts() {
        assertEquals(List.of("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "22nd", "101st"),
                java.util.stream.IntStream.of(1, 2, 3, 4, 11, 12, 13, 22, 101).mapToObj(RunCharts::ordinal).toList());
        assertEquals("100,000", RunCharts.count(100_000));
    }

    @Test
    void errorBreakdownCountsByTypeMostFrequentFirst() throws Exception {
        ErrorBreakdown e = ErrorBreakdown.of(ArtifactJson.parse("[{\"error_type\":\"b\"},{\"error_type\":\"a\"},"
                + "{\"error_type\":\"c\"},{\"error_type\":\"c\"},{}]"));
        assertEquals(List.of("c", "a", "b", "unknown"), e.types());
        assertEquals(2, e.counts().get("c"));
        Chart c = e.chart("errors");
        assertArrayEquals(new double[] {0, 1, 2, 3}, c.x());
        assertArrayEquals(new double[] {2, 1, 1, 1}, c.series().get(0).y());
    }

    /** Before: a report with zero gaps had lower_ms 0 first, which the log x scale cannot draw: an empty chart. */
    @Test
    void theZeroGapBucketIsDrawnBelowItsUpperEdgeOnTheLogScale() throws Exception {
        HistogramSeries h = HistogramSeries.parse(ArtifactJson.parse(
                "{\"lower_ms\":[0.0,0.001],\"upper_ms\":[0.001,0.00125893],\"count\":[3,1]}"));
        Chart c = h.chart("h");
        assertEquals(0.001 / Math.pow(10, 0.1), c.x()[0], 1e-15);
        assertEquals(0.001, c.x()[1]);
        assertArrayEquals(new double[] {3, 1}, c.series().get(0).y());
        assertEquals(4, h.total());
    }

    /** Before: the summary's context cell was empty for a sampled context plan (context_tokens null). */
    @Test
    void theContextCellGivesTheFixedValueOrTheSampledRange() throws Exception {
        assertEquals("1,024", RunTables.context(ArtifactJson.parse("{\"context_tokens\":1024}")));
        assertEquals("sampled: 16000 to 31680 (2 values)", RunTables.context(ArtifactJson.parse(
                "{\"context_tokens\":null,\"context_distribution\":{\"31680\":3,\"16000\":5}}")));
        assertEquals("", RunTables.context(ArtifactJson.parse("{}")));
    }
}

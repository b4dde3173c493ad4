package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.RunStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatisticsCalculatorTest {

    private static void assertDistribution(Distribution d, long count, double mean, double stddev, double min,
                                           double max, double p50, double p90, double p95, double p99) {
        assertEquals(count, d.getCount());
        assertEquals(mean, d.getMean());
        assertEquals(stddev, d.getStddev());
        assertEquals(min, d.getMin());
        assertEquals(max, d.getMax());
        assertEquals(p50, d.getP50());
        assertEquals(p90, d.getP90());
        assertEquals(p95, d.getP95());
        assertEquals(p99, d.getP99());
    }

    private static void assertEmpty(Distribution d) {
        assertEquals(0, d.getCount());
        assertNull(d.getMean());
        assertNull(d.getStddev());
        assertNull(d.getMin());
        assertNull(d.getMax());
        assertNull(d.getP50());
        assertNull(d.getP90());
        assertNull(d.getP95());
        assertNull(d.getP99());
    }

    @Test
    void distributionOfSmallSamplesIsExact() {
        // population stddev of 2,4,4,4,5,5,7,9 is exactly 2 (mean 5, squared deviations sum to 32)
        assertDistribution(Distributions.of(new double[] {9, 4, 2, 5, 4, 7, 4, 5}), 8, 5.0, 2.0, 2.0, 9.0,
                4.0, 9.0, 9.0, 9.0);
        // 1,2,3,4: mean 2.5, squared deviations 5 / 4 = 1.25; p50 = sorted[ceil(2) - 1]
        assertDistribution(Distributions.of(List.of(4.0, 1.0, 3.0, 2.0)), 4, 2.5, Math.sqrt(1.25), 1.0, 4.0,
                2.0, 4.0, 4.0, 4.0);
        double[] ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
        // nearest rank over 1..10: p50 = sorted[4], p90 = sorted[8], p95 = p99 = sorted[9]
        assertDistribution(Distributions.of(ten), 10, 5.5, Math.sqrt(8.25), 1.0, 10.0, 5.0, 9.0, 10.0, 10.0);
        assertEquals(10.0, ten[0], "the input is not sorted in place");
        assertDistribution(Distributions.of(new double[] {7.5}), 1, 7.5, 0.0, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5);
    }

    @Test
    void emptyOrAllNullGivesCountZeroAndNullStatistics() {
        assertEmpty(Distributions.of(new double[0]));
        assertEmpty(Distributions.of(Arrays.asList((Double) null, null)));
        List<Double> withNull = new ArrayList<>(Arrays.asList(3.0, null, 1.0));
        assertDistribution(Distributions.of(withNull), 2, 2.0, 1.0, 1.0, 3.0, 1.0, 3.0, 3.0, 3.0);
    }

    /**
     * Two valid requests (TTFT 250 / 500 ms, E2E 1250 / 2500 ms, ITL 100 / 50 ms) and one that fails
     * the validity filter (E2E before TTFT: no row, so none of its gaps count, but its tokens do).
     */
    @Test
    void statisticsOverTheRowsAndTheirChunkGaps() {
        List<RequestCompleted> successes = List.of(
                ok(0, 250, 1250, 1000, 11).setOutputChunkGapsUs(List.of(10_000, 20_000)).build(),
                ok(1, 500, 2500, 2000, 41).setOutputChunkGapsUs(List.of(30_000)).setOutputChunkGapsDropped(5).build(),
                ok(2, 300, 100, 3000, 8).setOutputChunkGapsUs(List.of(999_000)).setOutputChunkGapsDropped(7).build());
        List<RequestTiming> rows = rows(successes);
        assertEquals(2, rows.size());
        Metrics m = MetricsCalculator.compute(rows, successes, 4.0);
        RunStatistics s = StatisticsCalculator.compute(rows, successes, m, 4.0);

        assertDistribution(s.getTtftMs(), 2, 375.0, 125.0, 250.0, 500.0, 250.0, 500.0, 500.0, 500.0);
        assertDistribution(s.getTtfoMs(), 2, 375.0, 125.0, 250.0, 500.0, 250.0, 500.0, 500.0, 500.0);
        assertDistribution(s.getE2eMs(), 2, 1875.0, 625.0, 1250.0, 2500.0, 1250.0, 2500.0, 2500.0, 2500.0);
        // ITL = (e2e - ttfo) x 1000 / (tokens - 1): 1000 / 10 and 2000 / 40
        assertDistribution(s.getItlMs(), 2, 75.0, 25.0, 50.0, 100.0, 50.0, 100.0, 100.0, 100.0);
        // gaps 10000, 20000, 30000 us -> 10, 20, 30 ms; squared deviations 200 / 3
        assertDistribution(s.getInterChunkMs(), 3, 20.0, Math.sqrt(200.0 / 3), 10.0, 30.0, 20.0, 30.0, 30.0, 30.0);
        assertEquals(5L, s.getInterChunkGapsDropped());
        // the same three gaps in decile buckets: 10 ms in k = 10, 20 ms in k = 13, 30 ms in k = 14
        assertEquals(List.of(10.0, 12.5893, 15.8489, 19.9526, 25.1189), s.getInterChunkHistogram().getLowerMs());
        assertEquals(List.of(12.5893, 15.8489, 19.9526, 25.1189, 31.6228), s.getInterChunkHistogram().getUpperMs());
        assertEquals(List.of(1L, 0L, 0L, 1L, 1L), s.getInterChunkHistogram().getCount());
        assertEquals(s.getInterChunkMs().getCount(),
                s.getInterChunkHistogram().getCount().stream().mapToLong(Long::longValue).sum());
        assertEquals(0.75, s.getRequestThroughputRps(), "3 completed requests / 4 s");
        assertEquals(15.0, s.getOutputThroughputTokS(), "60 output tokens / 4 s (metrics.throughput_tok_s)");
        assertEquals(m.getThroughputTokS(), s.getOutputThroughputTokS());
        assertEquals(1515.0, s.getTotalTokenThroughputTokS(), "(6000 prompt + 60 output tokens) / 4 s");
    }

    @Test
    void withoutAWallClockTheThroughputsAreNull() {
        List<RequestCompleted> successes = List.of(ok(0, 250, 1250, 1000, 11).build());
        List<RequestTiming> rows = rows(successes);
        RunStatistics s = StatisticsCalculator.compute(rows, successes, MetricsCalculator.compute(rows, successes, null),
                null);
        assertNull(s.getRequestThroughputRps());
        assertNull(s.getOutputThroughputTokS());
        assertNull(s.getTotalTokenThroughputTokS());
        assertEquals(1, s.getTtftMs().getCount());
        RunStatistics zero = StatisticsCalculator.compute(rows, successes,
                MetricsCalculator.compute(rows, successes, 0.0), 0.0);
        assertNull(zero.getRequestThroughputRps(), "a zero wall clock is no wall clock");
        assertNull(zero.getTotalTokenThroughputTokS());
        RunStatistics nan = StatisticsCalculator.compute(rows, successes,
                MetricsCalculator.compute(rows, successes, Double.NaN), Double.NaN);
        assertNull(nan.getRequestThroughputRps(), "a NaN wall clock puts no NaN under the capstream key");
        assertNull(nan.getOutputThroughputTokS());
        assertNull(nan.getTotalTokenThroughputTokS());
    }

    @Test
    void noGapsNoRowsAndContentChunkSources() {
        RunStatistics none = StatisticsCalculator.compute(List.of(), List.of(), Metrics.newBuilder().build(), 2.0);
        assertEmpty(none.getTtftMs());
        assertEmpty(none.getTtfoMs());
        assertEmpty(none.getE2eMs());
        assertEmpty(none.getItlMs());
        assertEmpty(none.getInterChunkMs());
        assertNull(none.getInterChunkHistogram(), "no gaps, no histogram");
        assertEquals(0L, none.getInterChunkGapsDropped());
        assertEquals(0.0, none.getRequestThroughputRps());

        // no usage tokens: no output token total, so no total token throughput; no ITL, no gaps (older events)
        List<RequestCompleted> chunks = List.of(ok(0, 250, 1250, 1000, 0).setCompletionTokens(null)
                .setOutputTokenSource("content_chunks").setContentChunks(40).build());
        List<RequestTiming> rows = rows(chunks);
        RunStatistics s = StatisticsCalculator.compute(rows, chunks, MetricsCalculator.compute(rows, chunks, 2.0), 2.0);
        assertEmpty(s.getItlMs());
        assertEmpty(s.getInterChunkMs());
        assertEquals(0.5, s.getRequestThroughputRps());
        assertNull(s.getOutputThroughputTokS());
        assertNull(s.getTotalTokenThroughputTokS());
    }

    private static List<RequestTiming> rows(List<RequestCompleted> successes) {
        List<RequestTiming> rows = new ArrayList<>();
        for (RequestCompleted c : successes) {
            RequestTiming r = RowCalculator.timing(c);
            if (r != null) {
                rows.add(r);
            }
        }
        return rows;
    }
}

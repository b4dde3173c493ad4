package io.capstream.aggregator.report.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class SloEvaluatorTest {
    private static final Metrics METRICS = Metrics.newBuilder().setThroughputTokS(120.0).build();

    private static RequestTiming row(int index, double ttft, double ttfo, double e2e, Double itl, Double decode,
                                     Double prefill) {
        return RequestTiming.newBuilder().setRequestIndex(index).setPlannedContextTokens(4096)
                .setOutputTokenSource("usage").setTtftMs(ttft).setTimeToFirstOutputMs(ttfo).setGenerationMs(e2e - ttfo)
                .setE2eMs(e2e).setMeanInterTokenLatencyMs(itl).setDecodeTokS(decode).setEffectivePrefillTokS(prefill)
                .build();
    }

    /** Four rows; r2 has no ITL and no decode rate, r3 no prefill rate. */
    private static final List<RequestTiming> ROWS = List.of(
            row(0, 100, 90, 1000, 10.0, 100.0, 5000.0),
            row(1, 200, 180, 2000, 20.0, 50.0, 4000.0),
            row(2, 300, 270, 3000, null, null, 3000.0),
            row(3, 400, 360, 4000, 40.0, 25.0, null));

    /** The four rows plus one failed request: requests = 5, so attainment and goodput divide by 5. */
    private static SloReport evaluate(String... slos) {
        return SloEvaluator.evaluate(List.of(slos), ReportSlos::parse, ROWS, 4, 1, METRICS, 2.0);
    }

    private static void assertEntry(SloAttainment a, String slo, String metric, double threshold, Double observed,
                                    boolean met, Integer meeting, Double attainment) {
        assertEquals(slo, a.getSlo());
        assertEquals(metric, a.getMetric());
        assertEquals(threshold, a.getThreshold());
        assertEquals(observed, a.getObserved());
        assertEquals(met, a.getMet());
        assertEquals(meeting, a.getRequestsMeeting());
        assertEquals(attainment, a.getAttainment());
    }

    @Test
    void percentileSlosOfEveryQuantity() {
        SloReport r = evaluate("ttft_p95_ms<=300", "ttfo_p50_ms<200", "e2e_p99_ms<=4000", "itl_p50_ms<=15",
                "decode_p50_tok_s>=40", "prefill_p95_tok_s>3000");
        List<SloAttainment> s = r.getSlos();
        assertEquals(6, s.size());
        // p95 of 4 values is sorted[3]; the failed request counts against attainment (3 of 5)
        assertEntry(s.get(0), "ttft_p95_ms<=300", "ttft_p95_ms", 300.0, 400.0, false, 3, 0.6);
        assertEntry(s.get(1), "ttfo_p50_ms<200", "ttfo_p50_ms", 200.0, 180.0, true, 2, 0.4);
        assertEntry(s.get(2), "e2e_p99_ms<=4000", "e2e_p99_ms", 4000.0, 4000.0, true, 4, 0.8);
        // ITL over the 3 rows that have one (10, 20, 40): p50 = 20; r2 (no ITL) is not held against it
        assertEntry(s.get(3), "itl_p50_ms<=15", "itl_p50_ms", 15.0, 20.0, false, 2, 0.4);
        // decode (25, 50, 100): p50 = 50; meeting r0, r1 and r2 (no value)
        assertEntry(s.get(4), "decode_p50_tok_s>=40", "decode_p50_tok_s", 40.0, 50.0, true, 3, 0.6);
        // prefill (3000, 4000, 5000): p95 = 5000; 3000 is not > 3000; r3 (no value) meets it
        assertEntry(s.get(5), "prefill_p95_tok_s>3000", "prefill_p95_tok_s", 3000.0, 5000.0, true, 3, 0.6);
        assertEquals(5, r.getRequests());
        // only r0 meets all six: r1 misses itl, r2 misses ttfo, r3 misses ttft
        assertEquals(1, r.getGoodRequests());
        assertEquals(0.2, r.getGoodput());
        assertEquals(0.5, r.getGoodputRps(), "1 good request / 2 s");
        assertFalse(r.getMetAll());
    }

    @Test
    void runLevelSlos() {
        SloReport r = evaluate("error_rate<=0.1", "goodput>=0.5", "output_throughput_tok_s>=100", "ttft_p50_ms<=1000");
        List<SloAttainment> s = r.getSlos();
        assertEntry(s.get(0), "error_rate<=0.1", "error_rate", 0.1, 0.2, false, null, null);
        // every row meets ttft <= 1000: 4 good of 5 requests (the failure counts against goodput)
        assertEntry(s.get(1), "goodput>=0.5", "goodput", 0.5, 0.8, true, null, null);
        assertEntry(s.get(2), "output_throughput_tok_s>=100", "output_throughput_tok_s", 100.0, 120.0, true, null, null);
        assertEntry(s.get(3), "ttft_p50_ms<=1000", "ttft_p50_ms", 1000.0, 200.0, true, 4, 0.8);
        assertEquals(4, r.getGoodRequests());
        assertEquals(0.8, r.getGoodput());
        assertEquals(2.0, r.getGoodputRps());
        assertFalse(r.getMetAll(), "the error rate is missed");
        assertTrue(evaluate("error_rate<=0.2", "goodput>=0.8").getMetAll(), "<= and >= include the threshold");
    }

    @Test
    void withoutPercentileSlosEveryRowIsGood() {
        SloReport r = evaluate("error_rate<0.5");
        assertEquals(4, r.getGoodRequests());
        assertEquals(0.8, r.getGoodput());
        assertTrue(r.getMetAll());
    }

    @Test
    void missingValuesGiveNullObservedAndNotMet() {
        // no row has an ITL and no wall clock: observed null (not met), every row still meets it
        List<RequestTiming> rows = List.of(row(0, 100, 100, 1000, null, null, null));
        SloReport r = SloEvaluator.evaluate(List.of("itl_p95_ms<=50", "output_throughput_tok_s>=1"), ReportSlos::parse,
                rows, 1, 0, Metrics.newBuilder().build(), null);
        assertEntry(r.getSlos().get(0), "itl_p95_ms<=50", "itl_p95_ms", 50.0, null, false, 1, 1.0);
        assertEntry(r.getSlos().get(1), "output_throughput_tok_s>=1", "output_throughput_tok_s", 1.0, null, false, null,
                null);
        assertEquals(1, r.getGoodRequests());
        assertEquals(1.0, r.getGoodput());
        assertNull(r.getGoodputRps(), "no wall clock");
        SloReport nan = SloEvaluator.evaluate(List.of("output_throughput_tok_s>=1"), ReportSlos::parse, rows, 1, 0,
                Metrics.newBuilder().setThroughputTokS(Double.NaN).build(), Double.NaN);
        assertNull(nan.getSlos().get(0).getObserved(), "a NaN wall clock gives no throughput");
        assertNull(nan.getGoodputRps());
        assertFalse(r.getMetAll());
    }

    @Test
    void aRunWhereEveryRequestFailed() {
        SloReport r = SloEvaluator.evaluate(List.of("ttft_p95_ms<=300", "error_rate<=0.01", "goodput>=0.9"),
                ReportSlos::parse, List.of(), 0, 3, METRICS, 1.5);
        assertEntry(r.getSlos().get(0), "ttft_p95_ms<=300", "ttft_p95_ms", 300.0, null, false, 0, 0.0);
        assertEntry(r.getSlos().get(1), "error_rate<=0.01", "error_rate", 0.01, 1.0, false, null, null);
        assertEntry(r.getSlos().get(2), "goodput>=0.9", "goodput", 0.9, 0.0, false, null, null);
        assertEquals(3, r.getRequests());
        assertEquals(0, r.getGoodRequests());
        assertEquals(0.0, r.getGoodputRps());
    }

    @Test
    void noRequestAtAllGivesNullRatios() {
        SloReport r = SloEvaluator.evaluate(List.of("ttft_p95_ms<=300", "error_rate<=0.01", "goodput>=0.9"),
                ReportSlos::parse, List.of(), 0, 0, METRICS, null);
        assertEntry(r.getSlos().get(0), "ttft_p95_ms<=300", "ttft_p95_ms", 300.0, null, false, 0, null);
        assertEntry(r.getSlos().get(1), "error_rate<=0.01", "error_rate", 0.01, null, false, null, null);
        assertNull(r.getGoodput());
        assertNull(r.getGoodputRps());
    }

    @Test
    void anUnparseableSloIsAnInvalidEntryThatIsNotMet() {
        SloReport r = evaluate(" ttft_p95_ms <= 300 ", "latency<=5");
        assertEntry(r.getSlos().get(0), "ttft_p95_ms <= 300", "ttft_p95_ms", 300.0, 400.0, false, 3, 0.6);
        assertEntry(r.getSlos().get(1), "latency<=5", SloEvaluator.INVALID, 0.0, null, false, null, null);
        assertEquals(3, r.getGoodRequests(), "an invalid SLO judges no request");
        assertFalse(r.getMetAll());
    }

    @Test
    void noSlosGiveNoReport() {
        assertNull(SloEvaluator.evaluate(List.of(), ReportSlos::parse, ROWS, 4, 1, METRICS, 2.0));
        assertNull(SloEvaluator.evaluate(null, null, ROWS, 4, 1, METRICS, 2.0));
    }
}

package io.capstream.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console table and the max-load line at the end of a sweep. */
class SweepTableTest {
    private static SweepPoint point(int step, double load, boolean repeat, Double ttftP95, Boolean meets) {
        return SweepPoint.newBuilder().setStep(step).setRunId("sw-s" + step).setLoad(load).setRepeat(repeat)
                .setRequests(32).setCompleted(32).setFailed(0).setErrorRate(0.0).setRequestsPerS(3.125)
                .setOutputTokS(100.0).setTtftP50Ms(100.0).setTtftP95Ms(ttftP95).setTtftP99Ms(250.5)
                .setItlP99Ms(12.25).setE2eP95Ms(900.0).setGoodput(meets == null ? null : meets ? 1.0 : 0.5)
                .setOfferedLoad(load).setAchievedLoad(load * 0.98).setMeetsSlos(meets).build();
    }

    private static SweepCurve curve(List<String> slos, Double max, String maxRun, SweepPoint... points) {
        return SweepCurve.newBuilder().setSweepId("sw").setAxis("concurrency").setMode("search").setSlos(slos)
                .setPoints(List.of(points)).setMaxLoadMeetingSlos(max).setMaxLoadRunId(maxRun).setUpdatedAtMs(1)
                .build();
    }

    @Test
    void rendersOneRowPerStepAndTheMaxLoad() {
        SweepCurve c = curve(List.of("ttft_p95_ms<=300"), 8.0, "sw-s2", point(1, 1, false, 112.5, true),
                point(2, 8, false, 200.0, true), point(3, 16, false, 880.0, false), point(4, 8, true, 201.0, true));
        String expected = String.join("\n",
                "step  concurrency    req/s  out tok/s  TTFT p50  TTFT p95  TTFT p99  ITL p99   E2E p95  err %  goodput  achieved SLOs",
                "1               1     3.13      100.0     100.0     112.5     250.5     12.3     900.0    0.0    100.0      0.98 met",
                "2               8     3.13      100.0     100.0     200.0     250.5     12.3     900.0    0.0    100.0      7.84 met",
                "3              16     3.13      100.0     100.0     880.0     250.5     12.3     900.0    0.0     50.0     15.68 MISSED",
                "4r              8     3.13      100.0     100.0     201.0     250.5     12.3     900.0    0.0    100.0      7.84 met",
                "max load meeting SLOs: concurrency 8 (step 2, run sw-s2)", "");
        assertEquals(expected, SweepTable.render(c));
    }

    @Test
    void theMaxLineSaysWhenNoLoadMetTheSlosOrThereWereNone() {
        assertEquals("none of the loads met the SLOs",
                SweepTable.maxLine(curve(List.of("ttft_p95_ms<=300"), null, null, point(1, 1, false, 500.0, false))));
        // before: "none of the loads met the SLOs" although steps 2 and 3 met them above a cold step 1
        assertEquals("no max load meeting SLOs: concurrency 1 (step 1) missed them, and a load counts only when every"
                + " lower load met them too (2, 4 met them)",
                SweepTable.maxLine(curve(List.of("ttft_p95_ms<=100"), null, null, point(1, 1, false, 265.0, false),
                        point(2, 2, false, 74.9, true), point(3, 4, false, 84.6, true))));
        assertEquals("no SLOs given (--slo): no max load meeting SLOs",
                SweepTable.maxLine(curve(List.of(), null, null, point(1, 1, false, 500.0, null))));
    }

    @Test
    void theTopOfTheGridIsSaidToBeALowerBound() {
        // issue 26.4: "max load meeting SLOs: concurrency 32" when 32 was the largest step tried
        SweepCurve c = SweepCurve.newBuilder(curve(List.of("ttft_p95_ms<=300"), 4.0, "sw-s3",
                point(1, 1, false, 100.0, true), point(2, 2, false, 110.0, true), point(3, 4, false, 120.0, true)))
                .setMaxLoadLowerBound(true).build();
        assertEquals("max load meeting SLOs: at least concurrency 4 (step 3, run sw-s3): a lower bound, no higher load"
                + " missed the SLOs (it is the largest load tried); the endpoint may take more", SweepTable.maxLine(c));
    }

    @Test
    void stepsHeldByTheInFlightCapAreMarkedAndNamed() {
        SweepPoint capped = SweepPoint.newBuilder(point(2, 32, false, 60.0, null)).setHeldByInFlightCap(true).build();
        SweepCurve c = SweepCurve.newBuilder(curve(List.of("ttft_p95_ms<=300"), 8.0, "sw-s1",
                point(1, 8, false, 55.0, true), capped)).setAxis("rate").setMaxLoadLowerBound(true).build();
        String table = SweepTable.render(c);
        assertEquals(true, table.contains("31.36 CAPPED\n"), table);
        assertEquals(true, table.contains("step 2 (rate 32 req/s) was held by the client's in-flight cap"
                + " (--max-in-flight), not by the endpoint: no SLO verdict; raise --max-in-flight to measure that"
                + " load\n"), table);
        assertEquals(true, table.contains("max load meeting SLOs: at least rate 8 req/s (step 1, run sw-s1): a lower"
                + " bound, no higher load missed the SLOs; the endpoint may take more\n"), table);
    }

    @Test
    void aStepAStopRuleEndedIsMarkedStopped() {
        SweepCurve c = curve(List.of(), null, null, point(1, 1, false, 112.5, null), point(2, 8, false, 200.0, null));
        String table = SweepTable.render(c, java.util.Set.of("sw-s2"));
        org.assertj.core.api.Assertions.assertThat(table)
                .contains("7.84 STOPPED\n")
                .contains("0.98 -\n")
                .contains("stopped by a stop rule: step 2 (capstream.stopped in the step's report; counts as missing"
                        + " the SLOs)\n");
        org.assertj.core.api.Assertions.assertThat(SweepTable.render(c)).as("no stopped step: as before")
                .doesNotContain("STOPPED").doesNotContain("stop rule");
    }
}

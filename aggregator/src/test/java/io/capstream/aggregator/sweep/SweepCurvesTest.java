package io.capstream.aggregator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepCurvesTest {
    private static final String SWEEP = "sweep-20261201T120000Z";

    /** A point at {@code load} whose SLO verdict is {@code meets} (null: no SLOs). */
    private static SweepPoint pt(int step, double load, Boolean meets) {
        return SweepCurves.point(SweepReports.step(SWEEP, step, load, meets));
    }

    private static List<SweepPoint> grid(double[] loads, Boolean[] meets) {
        List<SweepPoint> points = new ArrayList<>();
        for (int i = 0; i < loads.length; i++) {
            points.add(pt(i + 1, loads[i], meets[i]));
        }
        return points;
    }

    @Test
    void pointMapsEveryFieldOfAFullReport() {
        SweepPoint p = SweepCurves.point(SweepReports.step(SWEEP, 3, "concurrency", 4, true, false));
        assertEquals(3, p.getStep());
        assertEquals(SWEEP + "-s3", p.getRunId());
        assertEquals(4.0, p.getLoad());
        assertFalse(p.getRepeat());
        assertEquals(20, p.getRequests());
        assertEquals(19, p.getCompleted());
        assertEquals(1, p.getFailed());
        assertEquals(0.05, p.getErrorRate());
        assertEquals(9.5, p.getRequestsPerS());
        assertEquals(350.25, p.getOutputTokS());
        assertEquals(1200.5, p.getTotalTokS());
        assertEquals(12.0, p.getTtftP50Ms());
        assertEquals(25.0, p.getTtftP95Ms());
        assertEquals(30.0, p.getTtftP99Ms());
        assertEquals(5.0, p.getItlP50Ms(), "ITL: the per-request mean, as the itl SLO and the anvil metric");
        assertEquals(6.0, p.getItlP95Ms());
        assertEquals(7.0, p.getItlP99Ms());
        assertEquals(4.0, p.getInterChunkP50Ms(), "every chunk gap");
        assertEquals(8.0, p.getInterChunkP95Ms());
        assertEquals(9.5, p.getInterChunkP99Ms());
        assertEquals(110.0, p.getE2eP50Ms());
        assertEquals(210.0, p.getE2eP95Ms());
        assertEquals(250.0, p.getE2eP99Ms());
        assertEquals(0.95, p.getGoodput());
        assertEquals(9.0, p.getGoodputRps());
        assertEquals(4.0, p.getOfferedLoad());
        assertEquals(3.75, p.getAchievedLoad(), "concurrency axis: mean requests in flight");
        assertNull(p.getScheduledLoad(), "the realised schedule is a rate-axis figure");
        assertFalse(p.getBehindSchedule());
        assertFalse(p.getInterrupted());
        assertEquals(Boolean.TRUE, p.getMeetsSlos());
    }

    @Test
    void aStepThatDidNotApplyItsLoadMissesTheSlosWhateverItsLatencies() {
        BenchmarkReport behind = SweepReports.step(SWEEP, 4, "rate", 64.0, true, false);
        behind.getLoad().setBehindSchedule(true);
        SweepPoint p = SweepCurves.point(behind);
        assertTrue(p.getBehindSchedule());
        assertEquals(Boolean.FALSE, p.getMeetsSlos(), "its latencies belong to a lower load than 64 req/s");
        BenchmarkReport stopped = SweepReports.step(SWEEP, 4, "concurrency", 8.0, true, false);
        stopped.getLoad().setInterrupted(true);
        assertEquals(Boolean.FALSE, SweepCurves.point(stopped).getMeetsSlos());
        BenchmarkReport incomplete = SweepReports.step(SWEEP, 4, "concurrency", 8.0, true, false);
        incomplete.getProvenance().setComplete(false);
        assertEquals(Boolean.FALSE, SweepCurves.meetsSlos(incomplete));
        assertEquals(Boolean.TRUE, SweepCurves.meetsSlos(SweepReports.step(SWEEP, 4, "concurrency", 8.0, true, false)));
    }

    @Test
    void aStepHeldByTheClientsInFlightCapGetsNoVerdictAndDoesNotBoundTheCapacity() {
        // issue 26.2: rate steps 16-64 held to ~16-21 req/s by --max-in-flight 20 counted as the endpoint missing its
        // SLOs, so the sweep reported 8 req/s; the cap is the client's, not the endpoint's
        BenchmarkReport capped = SweepReports.step(SWEEP, 3, "rate", 16.0, false, false);
        capped.getLoad().setArrival("poisson");
        capped.getLoad().setBehindSchedule(true);
        capped.getLoad().setOfferedConcurrency(20);
        capped.getLoad().setAchievedConcurrency(19.4);
        SweepPoint p = SweepCurves.point(capped);
        assertTrue(p.getHeldByInFlightCap(), "mean in flight 19.4 of a cap of 20: " + p);
        assertNull(p.getMeetsSlos(), "no verdict on the endpoint at a load the client did not apply: " + p);
        BenchmarkReport endpointBound = SweepReports.step(SWEEP, 3, "rate", 16.0, false, false);
        endpointBound.getLoad().setArrival("poisson");
        endpointBound.getLoad().setBehindSchedule(true);
        endpointBound.getLoad().setOfferedConcurrency(1000);
        endpointBound.getLoad().setAchievedConcurrency(60.0);
        assertFalse(SweepCurves.point(endpointBound).getHeldByInFlightCap());
        assertEquals(Boolean.FALSE, SweepCurves.point(endpointBound).getMeetsSlos(), "behind, far below the cap");

        List<SweepPoint> points = List.of(SweepCurves.point(SweepReports.step(SWEEP, 1, "rate", 4.0, true, false)),
                SweepCurves.point(SweepReports.step(SWEEP, 2, "rate", 8.0, true, false)), p);
        SweepCurves.MaxLoad max = SweepCurves.maxLoadMeetingSlos(points);
        assertEquals(8.0, max.load(), "the capped step neither passes nor bounds: " + max);
        assertTrue(SweepCurves.lowerBound(points, max), "nothing above 8 req/s missed the SLOs");
    }

    @Test
    void theTopOfTheGridIsALowerBoundAndAMissAboveItIsNot() {
        List<SweepPoint> allMet = grid(new double[] {1, 2, 4}, new Boolean[] {true, true, true});
        SweepCurves.MaxLoad top = SweepCurves.maxLoadMeetingSlos(allMet);
        assertEquals(4.0, top.load());
        assertTrue(SweepCurves.lowerBound(allMet, top), "the largest step tried met them: the endpoint may take more");
        List<SweepPoint> missAbove = grid(new double[] {1, 2, 4}, new Boolean[] {true, true, false});
        SweepCurves.MaxLoad two = SweepCurves.maxLoadMeetingSlos(missAbove);
        assertEquals(2.0, two.load());
        assertFalse(SweepCurves.lowerBound(missAbove, two), "4 missed them: 2 is the capacity on this grid");
        assertFalse(SweepCurves.lowerBound(missAbove, null));
        SweepCurve curve = null;
        for (int i = 1; i <= 3; i++) {
            curve = SweepCurves.fold(curve, SweepReports.step(SWEEP, i, (double) (1 << (i - 1)), true));
        }
        assertTrue(curve.getMaxLoadLowerBound(), "the folded curve says so: " + curve);
    }

    @Test
    void rateAxisAchievedLoadIsTheAchievedArrivalRate() {
        SweepPoint p = SweepCurves.point(SweepReports.step(SWEEP, 1, "rate", 8.0, false, true));
        assertEquals(8.0, p.getOfferedLoad());
        assertEquals(7.25, p.getAchievedLoad());
        assertEquals(7.5, p.getScheduledLoad());
        assertTrue(p.getRepeat());
        assertEquals(Boolean.FALSE, p.getMeetsSlos());
    }

    @Test
    void anOlderReportLeavesTheNewFieldsNullAndFallsBackToMetrics() {
        BenchmarkReport r = SweepReports.bare(SWEEP, 2, "concurrency", 2, false).setFailed(null).build();
        SweepPoint p = SweepCurves.point(r);
        assertEquals(20, p.getRequests(), "planned requests when failed is unknown");
        assertEquals(0, p.getFailed());
        assertNull(p.getErrorRate());
        assertNull(p.getRequestsPerS());
        assertEquals(350.25, p.getOutputTokS());
        assertNull(p.getTotalTokS());
        assertEquals(11.5, p.getTtftP50Ms());
        assertEquals(22.5, p.getTtftP95Ms());
        assertNull(p.getTtftP99Ms());
        assertNull(p.getItlP50Ms());
        assertNull(p.getItlP95Ms());
        assertNull(p.getItlP99Ms());
        assertEquals(101.0, p.getE2eP50Ms());
        assertEquals(202.0, p.getE2eP95Ms());
        assertNull(p.getE2eP99Ms());
        assertNull(p.getGoodput());
        assertNull(p.getGoodputRps());
        assertNull(p.getAchievedLoad());
        assertFalse(p.getBehindSchedule());
        assertNull(p.getMeetsSlos());
        assertNull(p.getPercentileCi(), "no statistics, no intervals");
    }

    /** Issue 32: the intervals of the step report's Distributions, keyed by the point's field names. */
    @Test
    void pointCarriesTheIntervalOfEachPercentileThatHasOne() {
        BenchmarkReport r = SweepReports.step(SWEEP, 1, "concurrency", 4, true, false);
        var stats = r.getStatistics();
        stats.setTtftMs(io.capstream.schemas.avro.Distribution.newBuilder(stats.getTtftMs())
                .setP50Ci(List.of(11.0, 13.5)).setP95Ci(List.of(21.0, 29.0))
                .setCiUnavailable(java.util.Map.of("p99", "10 values are too few (needs at least 368)")).build());
        stats.setE2eMs(io.capstream.schemas.avro.Distribution.newBuilder(stats.getE2eMs())
                .setP50Ci(List.of(100.0, 120.0)).build());
        SweepPoint p = SweepCurves.point(r);
        org.assertj.core.api.Assertions.assertThat(p.getPercentileCi()).as("percentile_ci")
                .containsOnly(java.util.Map.entry("ttft_p50_ms", List.of(11.0, 13.5)),
                        java.util.Map.entry("ttft_p95_ms", List.of(21.0, 29.0)),
                        java.util.Map.entry("e2e_p50_ms", List.of(100.0, 120.0)));
    }

    @Test
    void pointRejectsAReportOutsideASweep() {
        BenchmarkReport r = SweepReports.bare(SWEEP, 1, "concurrency", 1, false).setSweep(null).build();
        assertThrows(IllegalArgumentException.class, () -> SweepCurves.point(r));
        assertThrows(IllegalArgumentException.class, () -> SweepCurves.fold(null, r));
    }

    @Test
    void foldKeepsPointsInStepOrderAndTakesTheCurveFieldsFromTheReports() {
        SweepCurve c = null;
        for (int step : new int[] {3, 1, 2}) {
            c = SweepCurves.fold(c, SweepReports.step(SWEEP, step, 1 << (step - 1), true));
        }
        assertEquals(SWEEP, c.getSweepId());
        assertEquals("concurrency", c.getAxis());
        assertEquals("grid", c.getMode());
        assertEquals(6, c.getStepsPlanned());
        assertEquals(List.of(SweepReports.SLO), c.getSlos());
        assertEquals(List.of(1, 2, 3), c.getPoints().stream().map(SweepPoint::getStep).toList());
        assertEquals(List.of(1.0, 2.0, 4.0), c.getPoints().stream().map(SweepPoint::getLoad).toList());
        assertEquals(4.0, c.getMaxLoadMeetingSlos());
        assertEquals(SWEEP + "-s3", c.getMaxLoadRunId());
        assertEquals(1_767_225_603_000L, c.getUpdatedAtMs(), "generated_at_ms of step 3, the latest");
    }

    @Test
    void aRepublishedStepReplacesItsPoint() {
        SweepCurve c = SweepCurves.fold(null, SweepReports.step(SWEEP, 1, 1, true));
        c = SweepCurves.fold(c, SweepReports.step(SWEEP, 2, 2, true));
        SweepCurve before = c;
        BenchmarkReport late = SweepReports.step(SWEEP, 2, 2, false);
        late.setCompleted(20);
        late.setFailed(0);
        late.getProvenance().setGeneratedAtMs(1_767_225_609_000L);
        c = SweepCurves.fold(c, late);
        assertEquals(2, c.getPoints().size());
        SweepPoint p2 = c.getPoints().get(1);
        assertEquals(20, p2.getCompleted());
        assertEquals(0.0, p2.getErrorRate());
        assertEquals(Boolean.FALSE, p2.getMeetsSlos());
        assertEquals(1.0, c.getMaxLoadMeetingSlos(), "the republished step now fails");
        assertEquals(SWEEP + "-s1", c.getMaxLoadRunId());
        assertEquals(1_767_225_609_000L, c.getUpdatedAtMs());
        assertEquals(2.0, before.getMaxLoadMeetingSlos(), "the earlier curve is not modified");
        assertEquals(Boolean.TRUE, before.getPoints().get(1).getMeetsSlos());
    }

    @Test
    void aReportWithoutSlosKeepsTheCurvesSlos() {
        SweepCurve c = SweepCurves.fold(null, SweepReports.step(SWEEP, 1, 1, true));
        c = SweepCurves.fold(c, SweepReports.step(SWEEP, 2, 2, null));
        assertEquals(List.of(SweepReports.SLO), c.getSlos());
    }

    @Test
    void foldRejectsAnotherSweep() {
        SweepCurve c = SweepCurves.fold(null, SweepReports.step(SWEEP, 1, 1, true));
        assertThrows(IllegalArgumentException.class, () -> SweepCurves.fold(c, SweepReports.step("other", 2, 2, true)));
    }

    @Test
    void gridMaxLoadIsTheLastPassingLoadBeforeTheFirstFailure() {
        var max = SweepCurves.maxLoadMeetingSlos(grid(new double[] {1, 2, 4, 8, 16, 32},
                new Boolean[] {true, true, true, true, false, false}));
        assertEquals(new SweepCurves.MaxLoad(8.0, 4, SWEEP + "-s4"), max);
    }

    @Test
    void searchMaxLoadIsConfirmedByItsRepeat() {
        List<SweepPoint> points = grid(new double[] {1, 2, 4, 8, 16, 9}, new Boolean[] {true, true, true, true, false, false});
        points.add(SweepCurves.point(SweepReports.step(SWEEP, 7, "concurrency", 8, true, true)));
        assertEquals(new SweepCurves.MaxLoad(8.0, 7, SWEEP + "-s7"), SweepCurves.maxLoadMeetingSlos(points),
                "the repeat (highest step) at load 8");
    }

    @Test
    void aFailingRepeatFallsBackToTheNextLowerPassingLoad() {
        List<SweepPoint> points = grid(new double[] {1, 2, 4, 8, 16, 9}, new Boolean[] {true, true, true, true, false, false});
        points.add(SweepCurves.point(SweepReports.step(SWEEP, 7, "concurrency", 8, false, true)));
        assertEquals(new SweepCurves.MaxLoad(4.0, 3, SWEEP + "-s3"), SweepCurves.maxLoadMeetingSlos(points));
    }

    @Test
    void aPassAboveAFailureIsIgnored() {
        var max = SweepCurves.maxLoadMeetingSlos(grid(new double[] {1, 2, 4, 8}, new Boolean[] {true, false, true, true}));
        assertEquals(new SweepCurves.MaxLoad(1.0, 1, SWEEP + "-s1"), max);
    }

    @Test
    void noLoadPassesOrNoSlosGiveNull() {
        assertNull(SweepCurves.maxLoadMeetingSlos(grid(new double[] {1, 2}, new Boolean[] {null, null})), "no SLOs");
        assertNull(SweepCurves.maxLoadMeetingSlos(grid(new double[] {1, 2}, new Boolean[] {false, true})),
                "the smallest load fails");
        assertNull(SweepCurves.maxLoadMeetingSlos(List.of()));
        SweepCurve c = SweepCurves.fold(null, SweepReports.step(SWEEP, 1, 1, null));
        assertNull(c.getMaxLoadMeetingSlos());
        assertNull(c.getMaxLoadRunId());
        assertEquals(List.of(), c.getSlos());
    }

    @Test
    void ratesAreComparedAsNumbers() {
        var max = SweepCurves.maxLoadMeetingSlos(List.of(
                SweepCurves.point(SweepReports.step(SWEEP, 1, "rate", 2.0, true, false)),
                SweepCurves.point(SweepReports.step(SWEEP, 2, "rate", 4.5, true, false)),
                SweepCurves.point(SweepReports.step(SWEEP, 3, "rate", 16.0, false, false)),
                SweepCurves.point(SweepReports.step(SWEEP, 4, "rate", 10.0, true, false))));
        assertEquals(new SweepCurves.MaxLoad(10.0, 4, SWEEP + "-s4"), max);
    }
}

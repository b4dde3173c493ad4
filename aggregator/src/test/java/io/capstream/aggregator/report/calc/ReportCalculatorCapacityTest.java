package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.SweepStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statistics, SLO, load and sweep parts of the report (issue 12), wired through {@link ReportCalculator}. */
class ReportCalculatorCapacityTest {
    private static final long MS = 1_000_000L;

    private static RunData run(RunStarted st) {
        RequestCompleted a = ok(0, 250, 1250, 1000, 11).setScheduledStartNs(0).setStartNs(0)
                .setOutputChunkGapsUs(List.of(100_000, 100_000)).build();
        RequestCompleted b = ok(1, 500, 2500, 2000, 41).setScheduledStartNs(500 * MS).setStartNs(1000 * MS)
                .setClientQueueNs(500 * MS).setOutputChunkGapsUs(List.of(50_000)).build();
        return new RunData("run-cap", st, List.of(a, b),
                List.of(failed(2, "boom").setScheduledStartNs(1000 * MS).setStartNs(2000 * MS)
                        .setClientQueueNs(1000 * MS).setElapsedNs(1000 * MS).build()),
                finished(4_000 * MS), null);
    }

    private static RunStarted.Builder openLoop() {
        return started(3, 4096).setArrival("poisson").setRateRps(2.0).setMaxInFlight(1);
    }

    @Test
    void statisticsSloLoadAndSweepLandInTheRecordAndUnderTheCapstreamKey() throws Exception {
        SweepStep step = SweepStep.newBuilder().setSweepId("sweep-1").setStep(2).setAxis("rate").setValue(2.0)
                .setMode("grid").setStepsPlanned(4).build();
        RunStarted st = openLoop().setSlos(List.of("ttft_p95_ms<=400", "error_rate<=0.5")).setSweep(step).build();
        BenchmarkReport r = ReportCalculator.compute(run(st), ReportSlos::parse);

        assertEquals(2, r.getStatistics().getTtftMs().getCount());
        assertEquals(375.0, r.getStatistics().getTtftMs().getMean());
        assertEquals(3, r.getStatistics().getInterChunkMs().getCount());
        assertEquals(100.0, r.getStatistics().getInterChunkMs().getMax());
        assertEquals(0.5, r.getStatistics().getRequestThroughputRps(), "2 completed / 4 s");

        assertEquals(3, r.getSlo().getRequests());
        assertEquals(500.0, r.getSlo().getSlos().get(0).getObserved());
        assertFalse(r.getSlo().getSlos().get(0).getMet());
        assertEquals(1, r.getSlo().getSlos().get(0).getRequestsMeeting());
        assertEquals(1.0 / 3, r.getSlo().getSlos().get(1).getObserved());
        assertTrue(r.getSlo().getSlos().get(1).getMet());
        assertEquals(1, r.getSlo().getGoodRequests());

        assertEquals("poisson", r.getLoad().getArrival());
        assertEquals(2.0, r.getLoad().getScheduledRateRps(), "2 gaps over 1 s");
        assertEquals(1.0, r.getLoad().getAchievedRateRps(), "2 gaps over 2 s");
        assertTrue(r.getLoad().getBehindSchedule());
        assertEquals(1000.0, r.getLoad().getQueueMaxMs());
        assertEquals(1.1875, r.getLoad().getAchievedConcurrency(), "(1.25 + 2.5 s of E2E + 1 s to the failure) / 4 s");

        assertEquals("sweep-1", r.getSweep().getSweepId());
        assertEquals(2, r.getSweep().getStep());
        assertEquals("rate", r.getSweep().getAxis());
        assertEquals(2.0, r.getSweep().getValue());
        assertEquals("grid", r.getSweep().getMode());
        assertFalse(r.getSweep().getRepeat());
        assertEquals(4, r.getSweep().getStepsPlanned());

        JsonNode a = ArtifactJson.parse(r.getArtifactJson());
        for (String key : List.of("statistics", "slo", "load", "sweep")) {
            assertFalse(a.has(key), key + " is not a top-level key");
            assertTrue(a.get("capstream").get(key).isObject(), key);
        }
        assertEquals(375.0, a.get("capstream").get("statistics").get("ttft_ms").get("mean").doubleValue());
        assertEquals(1, a.get("capstream").get("slo").get("good_requests").intValue());
        assertEquals("ttft_p95_ms<=400", a.get("capstream").get("slo").get("slos").get(0).get("slo").textValue());
        assertTrue(a.get("capstream").get("load").get("behind_schedule").booleanValue());
        assertEquals("sweep-1", a.get("capstream").get("sweep").get("sweep_id").textValue());
    }

    @Test
    void withoutSlosParserOrSweepThoseKeysAreLeftOut() throws Exception {
        BenchmarkReport plain = ReportCalculator.compute(run(openLoop().build()), ReportSlos::parse);
        assertNull(plain.getSlo(), "no SLOs in RunStarted");
        assertNull(plain.getSweep());
        JsonNode a = ArtifactJson.parse(plain.getArtifactJson());
        assertFalse(a.get("capstream").has("slo"));
        assertFalse(a.get("capstream").has("sweep"));
        assertTrue(a.get("capstream").has("statistics"));
        assertTrue(a.get("capstream").has("load"));

        BenchmarkReport noParser = ReportCalculator.compute(run(openLoop().setSlos(List.of("ttft_p95_ms<=400")).build()));
        assertNull(noParser.getSlo(), "compute(RunData) evaluates no SLOs");
    }

    @Test
    void importedRunsHaveStatisticsButNoLoadAndNoTimeline() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(run(started(3, 4096).setOrigin("import").build()));
        assertNull(r.getLoad());
        assertNull(r.getTimeline());
        assertEquals(2, r.getStatistics().getE2eMs().getCount());
        assertFalse(ArtifactJson.parse(r.getArtifactJson()).get("capstream").has("timeline"));
    }

    @Test
    void theTimelineAndTheInterChunkHistogramAreInTheArtifact() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(run(openLoop().build()));
        JsonNode c = ArtifactJson.parse(r.getArtifactJson()).get("capstream");
        assertFalse(ArtifactJson.parse(r.getArtifactJson()).has("timeline"), "not a top-level key");

        // request 0: start 0, TTFT 250, E2E 1250; request 1: start 1000 (queued 500), TTFT 500, E2E 2500;
        // request 2 failed: start 2000 (queued 1000), 1000 ms to the failure
        JsonNode t = c.get("timeline");
        assertEquals("[0,1,2]", t.get("request_index").toString());
        assertEquals("[0.0,1000.0,2000.0]", t.get("start_ms").toString());
        assertEquals("[0.0,500.0,1000.0]", t.get("queue_ms").toString());
        assertEquals("[250.0,1500.0,null]", t.get("first_token_ms").toString());
        assertEquals("[1250.0,3500.0,3000.0]", t.get("end_ms").toString());
        assertEquals("[null,null,\"ValueError\"]", t.get("error_type").toString());
        assertEquals(List.of(0, 1, 2), r.getTimeline().getRequestIndex());

        // gaps 100, 100 and 50 ms: 50 ms in k = 16 [39.8107, 50.1187), 100 ms in k = 20 [100, 125.893)
        JsonNode h = c.get("statistics").get("inter_chunk_histogram");
        assertEquals("[39.8107,50.1187,63.0957,79.4328,100.0]", h.get("lower_ms").toString());
        assertEquals("[50.1187,63.0957,79.4328,100.0,125.893]", h.get("upper_ms").toString());
        assertEquals("[1,0,0,0,2]", h.get("count").toString());
        assertEquals(c.get("statistics").get("inter_chunk_ms").get("count").longValue(), 3);
    }
}

package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkersCalculatorTest {
    private static final double EPS = 1e-9;
    private static final RunStarted LIVE = started(10, 4096).setOrigin("live").build();

    /** A worker's RunFinished of a distributed run: share k of n, clock offset and its uncertainty in ms. */
    private static RunFinished share(int sent, int k, int n, double offsetMs, double uncertaintyMs) {
        return RunFinished.newBuilder(finished(1_000_000_000L)).setRequestsSent(sent).setShare(k).setShares(n)
                .setClockOffsetMs(offsetMs).setClockOffsetUncertaintyMs(uncertaintyMs).build();
    }

    @Test
    void aOneProcessRunHasOneWorkerWithoutShareOrOffset() {
        RunFinished fin = RunFinished.newBuilder(finished(1_000_000_000L)).setRequestsSent(10).build();
        Map<String, WorkerSummary> w = WorkersCalculator.compute(LIVE, Map.of("host-1", new WorkerEvents(9, 1, fin)));
        assertEquals(List.of("host-1"), new ArrayList<>(w.keySet()));
        WorkerSummary s = w.get("host-1");
        assertEquals(10, s.getRequests());
        assertEquals(9, s.getCompleted());
        assertEquals(1, s.getFailed());
        assertTrue(s.getRunFinished());
        assertEquals(10, s.getRequestsSent());
        assertNull(s.getShare());
        assertNull(s.getShares());
        assertNull(s.getClockOffsetMs());
        assertNull(s.getClockOffsetUncertaintyMs());
        assertNull(WorkersCalculator.clockOffsetSpreadMs(w), "no offset: no spread");
    }

    @Test
    void threeWorkersWithSharesAndOffsetsGiveTheSpread() {
        Map<String, WorkerEvents> in = new LinkedHashMap<>();
        in.put("w3", new WorkerEvents(3, 0, share(3, 2, 3, 2.5, 0.4)));
        in.put("w1", new WorkerEvents(4, 0, share(4, 0, 3, 0.7, 0.2)));
        in.put("w2", new WorkerEvents(2, 1, share(3, 1, 3, -1.1, 0.3)));
        Map<String, WorkerSummary> w = WorkersCalculator.compute(LIVE, in);
        assertEquals(List.of("w1", "w2", "w3"), new ArrayList<>(w.keySet()), "sorted by worker id");
        assertEquals(0, w.get("w1").getShare());
        assertEquals(1, w.get("w2").getShare());
        assertEquals(2, w.get("w3").getShare());
        for (WorkerSummary s : w.values()) {
            assertEquals(3, s.getShares());
            assertTrue(s.getRunFinished());
            assertEquals(s.getRequestsSent(), s.getRequests(), "every event arrived");
        }
        assertEquals(3, w.get("w2").getRequests());
        assertEquals(1, w.get("w2").getFailed());
        assertEquals(-1.1, w.get("w2").getClockOffsetMs());
        assertEquals(0.3, w.get("w2").getClockOffsetUncertaintyMs());
        assertEquals(2.5 - -1.1, WorkersCalculator.clockOffsetSpreadMs(w), EPS, "max - min");
    }

    @Test
    void aWorkerWhoseRunFinishedNeverCameIsListedUnfinished() {
        Map<String, WorkerEvents> in = new LinkedHashMap<>();
        in.put("w1", new WorkerEvents(5, 0, share(5, 0, 2, 1.0, 0.1)));
        in.put("w2", new WorkerEvents(2, 0, null)); // killed after 2 of its 5 requests
        Map<String, WorkerSummary> w = WorkersCalculator.compute(LIVE, in);
        WorkerSummary dead = w.get("w2");
        assertFalse(dead.getRunFinished());
        assertEquals(2, dead.getRequests());
        assertNull(dead.getRequestsSent());
        assertNull(dead.getShare());
        assertNull(dead.getShares());
        assertNull(dead.getClockOffsetMs());
        assertNull(WorkersCalculator.clockOffsetSpreadMs(w), "one offset: no spread");
    }

    @Test
    void importsAndUnknownWorkersHaveNoWorkersAndBrokenOffsetsAreUnknown() {
        RunStarted imported = started(1, 4096).setOrigin("import").build();
        assertNull(WorkersCalculator.compute(imported, Map.of("w", new WorkerEvents(1, 0, null))));
        assertNull(WorkersCalculator.compute(LIVE, null));
        assertNull(WorkersCalculator.clockOffsetSpreadMs(null));
        assertEquals(1, WorkersCalculator.compute(null, Map.of("w", new WorkerEvents(1, 0, null))).size(),
                "without RunStarted the run counts as live");
        Map<String, WorkerSummary> nan = WorkersCalculator.compute(LIVE, Map.of(
                "a", new WorkerEvents(1, 0, share(1, 0, 2, Double.NaN, Double.POSITIVE_INFINITY)),
                "b", new WorkerEvents(1, 0, share(1, 1, 2, 3.0, 0.1))));
        assertNull(nan.get("a").getClockOffsetMs());
        assertNull(nan.get("a").getClockOffsetUncertaintyMs());
        assertNull(WorkersCalculator.clockOffsetSpreadMs(nan));
        assertThrows(IllegalArgumentException.class, () -> new WorkerEvents(-1, 0, null));
    }

    @Test
    void theReportListsTheWorkersUnderTheCapstreamKey() throws Exception {
        List<RequestCompleted> ok = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ok.add(ok(i, 100, 600, 1000, 10).build());
        }
        Map<String, WorkerEvents> in = Map.of(
                "w0", new WorkerEvents(2, 0, share(2, 0, 2, 0.5, 0.1)),
                "w1", new WorkerEvents(2, 1, share(3, 1, 2, 2.0, 0.1)));
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-w", started(5, 4096).setOrigin("live")
                .setExpectedWorkers(2).build(), ok, List.of(failed(4, "x").build()), share(3, 1, 2, 2.0, 0.1), null, in));
        assertEquals(2, r.getWorkers().size());
        assertEquals(5, r.getWorkers().values().stream().mapToInt(WorkerSummary::getRequests).sum());
        assertEquals(1.5, r.getClockOffsetSpreadMs(), EPS);
        JsonNode c = ArtifactJson.parse(r.getArtifactJson()).get("capstream");
        assertEquals(3, c.get("workers").get("w1").get("requests").intValue());
        assertEquals(1, c.get("workers").get("w1").get("share").intValue());
        assertEquals(1.5, c.get("clock_offset_spread_ms").doubleValue(), EPS);

        BenchmarkReport unknown = ReportCalculator.compute(new RunData("run-u", LIVE, ok, List.of(),
                finished(1_000_000_000L), null));
        assertNull(unknown.getWorkers(), "the six-argument RunData knows no workers");
        assertFalse(ArtifactJson.parse(unknown.getArtifactJson()).get("capstream").has("workers"));
    }
}

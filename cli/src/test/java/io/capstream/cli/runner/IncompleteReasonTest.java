package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What {@code run} prints when the report it waited for is incomplete. */
class IncompleteReasonTest {
    private static Provenance incomplete(List<Integer> missing, boolean finishedSeen) {
        return Provenance.newBuilder().setKind(ReportKind.LIVE).setComplete(false).setMissingRequestIndices(missing)
                .setRunFinishedSeen(finishedSeen).build();
    }

    @Test
    void namesTheMissingRequestsAndAMissingRunFinished() {
        assertEquals("the report is incomplete: 2 request(s) without an event (indices 3, 7)",
                RunDriver.incompleteReason(incomplete(List.of(3, 7), true)));
        assertEquals("the report is incomplete: no RunFinished arrived",
                RunDriver.incompleteReason(incomplete(List.of(), false)));
        assertEquals("the report is incomplete: 1 request(s) without an event (indices 0), and no RunFinished arrived",
                RunDriver.incompleteReason(incomplete(List.of(0), false)));
    }

    /** A distributed run with a dead worker: the workers whose RunFinished arrived are named (was "no RunFinished"). */
    @Test
    void aDeadWorkersRunNamesTheWorkersThatFinished() {
        io.capstream.schemas.avro.WorkerSummary done = io.capstream.schemas.avro.WorkerSummary.newBuilder().setRequests(100)
                .setCompleted(100).setFailed(0).setRunFinished(true).setRequestsSent(100).build();
        io.capstream.schemas.avro.BenchmarkReport r = io.capstream.schemas.avro.BenchmarkReport.newBuilder()
                .setRunId("r").setBaseUrl("u").setModel("m").setRequests(300).setCompleted(200).setConcurrency(6)
                .setMaxTokens(4).setRequestTimings(List.of()).setArtifactJson("")
                .setMetrics(io.capstream.schemas.avro.Metrics.newBuilder().build())
                .setProvenance(incomplete(List.of(2, 5), false)).setWorkers(java.util.Map.of("w2", done, "w1", done))
                .build();
        assertEquals("the report is incomplete: 2 request(s) without an event (indices 2, 5), and only 2 workers'"
                + " RunFinished arrived (w1, w2)", RunDriver.incompleteReason(r));
    }

    @Test
    void longListsAreCutAfterTenIndices() {
        List<Integer> many = IntStream.range(20, 400).boxed().toList();
        assertEquals("the report is incomplete: 380 request(s) without an event (indices 20, 21, 22, 23, 24, 25, 26,"
                + " 27, 28, 29, ...)", RunDriver.incompleteReason(incomplete(many, true)));
    }
}

package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.artifact.AvroRecordJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The coordinator's summary of a distributed run carries the client check the report holds. */
class DistributedSummaryTest {
    private static BenchmarkReport report(String artifactJson) {
        return BenchmarkReport.newBuilder().setRunId("dist-1").setBaseUrl("http://127.0.0.1:8000/v1").setModel("m")
                .setRequests(30).setCompleted(30).setFailed(0).setFailures(List.of()).setConcurrency(3)
                .setMaxTokens(4).setRequestTimings(List.of()).setMetrics(Metrics.newBuilder().build())
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build())
                .setArtifactJson(artifactJson).build();
    }

    @Test
    void aDistortedDistributedRunPrintsItsClientCheckAndTheWarning() throws Exception {
        ClientCheck c = ClientCheck.newBuilder().setDelayP50Ms(0.1).setDelayP99Ms(12.5).setDelayMaxMs(40.0)
                .setCpuProcessMs(900.0).setCpuEventLoopsMs(120.0).setCpuMsPer1000Chunks(7.0).setGcPauses(3)
                .setGcPauseMaxMs(11.0).setInFlightMean(2.9).setInFlightMax(3).setQueueP99Ms(0.0)
                .setWarmupLoopbackRequests(0).setWarmupTargetRequests(0).setEventDelivery("live")
                .setDistorted(true).setWarnings(List.of("event-loop delay p99 12.5 ms")).build();
        var artifact = ArtifactJson.nodes().objectNode();
        artifact.putObject("capstream").set("client", AvroRecordJson.toObject(c));
        String text = DistributedSummary.summary(report(ArtifactJson.write(artifact)));
        assertThat(text).contains("client check      loop delay p50 0.1 / p99 12.5 / max 40.0 ms");
        assertThat(text).contains("warning: the client may have distorted these numbers: event-loop delay p99 12.5 ms");
    }

    @Test
    void aReportWithoutAClientCheckOrAnUnreadableArtifactHasNoClientLines() {
        String none = DistributedSummary.summary(report("{}"));
        assertThat(none).doesNotContain("client check");
        String unreadable = DistributedSummary.summary(report("not json"));
        assertThat(unreadable).doesNotContain("client check");
    }

    @Test
    void anInterruptedRunsMissingIndicesAreUnsentWhenEveryWorkerSaysSo() {
        java.util.Map<String, io.capstream.schemas.avro.WorkerSummary> w = new java.util.TreeMap<>();
        w.put("w1", worker(10));
        w.put("w2", worker(20));
        Provenance p = Provenance.newBuilder().setKind(ReportKind.LIVE).setRunFinishedSeen(true)
                .setMissingRequestIndices(java.util.stream.IntStream.range(30, 100).boxed().toList()).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report("{}")).setRequests(30).setCompleted(29).setFailed(1)
                .setWorkers(w).setProvenance(p).build();
        assertEquals(70, DistributedSummary.unsentOfInterrupted(r), "70 planned requests never sent");
        w.put("w2", worker(21)); // one more sent than arrived: an event was lost
        assertEquals(-1, DistributedSummary.unsentOfInterrupted(BenchmarkReport.newBuilder(r).setWorkers(w).build()));
        Provenance noFinish = Provenance.newBuilder(p).setRunFinishedSeen(false).build();
        assertEquals(-1, DistributedSummary.unsentOfInterrupted(BenchmarkReport.newBuilder(r).setProvenance(noFinish)
                .build()), "a RunFinished missing");
    }

    private static io.capstream.schemas.avro.WorkerSummary worker(int sent) {
        return io.capstream.schemas.avro.WorkerSummary.newBuilder().setRequests(sent).setCompleted(sent).setFailed(0)
                .setRunFinished(true).setRequestsSent(sent).build();
    }

    @Test
    void aRunAStopRuleEndedPrintsItsStopLineAndExitsFour(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        BenchmarkReport r = BenchmarkReport.newBuilder(report("{\"failed\": 26}")).setRequests(52).setCompleted(26)
                .setFailed(26).setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).setComplete(true).build())
                .setStopped(io.capstream.schemas.avro.StopReport.newBuilder().setRule("max_error_rate").setAtMs(2310.0)
                        .setDetail("26 of the last 50 requests failed (52%), over the 50% limit").setRequestsEnded(50)
                        .setRequestsNotSent(1948).setWorkersStopped(3).build())
                .build();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        RunRequest req = new RunRequest("run", null, null, null, null, null, false, false, true, null, null, null,
                null, null, null);
        int code = new DistributedSummary(req, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true))
                .written(r, dir.resolve("r.json"), false);
        assertThat(code).as(err.toString()).isEqualTo(io.capstream.loadgen.run.RunOutcome.EXIT_STOPPED);
        assertThat(out.toString()).contains("STOPPED           by max_error_rate at 2.31 s: 26 of the last 50 requests"
                + " failed (52%), over the 50% limit; 50 requests had ended, 1,948 planned were not sent (3 workers"
                + " stopped)\n");
        assertThat(err.toString()).contains("capstream run: 26 requests failed\n")
                .contains("capstream run: the run was stopped early by stop rule max_error_rate; exit code 4\n");
    }
}

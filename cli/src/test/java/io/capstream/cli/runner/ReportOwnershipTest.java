package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.WorkerSummary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fresh user's finding: two runs started in the same second on one Kafka share a derived run id, the aggregator keeps
 * the first, and the second {@code run} printed and wrote the first run's report as its own (exit 0).
 */
class ReportOwnershipTest {
    private static BenchmarkReport report(Map<String, WorkerSummary> workers) {
        return BenchmarkReport.newBuilder().setRunId("benchmark-20261206T120000Z").setBaseUrl("http://127.0.0.1:8000/v1")
                .setModel("m").setRequests(40).setCompleted(40).setFailed(0).setFailures(List.of()).setConcurrency(2)
                .setMaxTokens(16).setRequestTimings(List.of()).setMetrics(Metrics.newBuilder().build())
                .setWorkers(workers).setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build())
                .setArtifactJson("").build();
    }

    private static WorkerSummary worker(int requests, boolean finished) {
        return WorkerSummary.newBuilder().setRequests(requests).setCompleted(requests).setFailed(0)
                .setRunFinished(finished).setRequestsSent(finished ? requests : null).build();
    }

    @Test
    void aReportWithThisRunsWorkerAndItsRequestsIsThisRuns() {
        assertThat(ReportOwnership.foreign(report(Map.of("worker-a", worker(40, true))), "worker-a", 40))
                .as("own report").isNull();
    }

    @Test
    void aReportFromAnotherWorkerIsAnotherRunsAndSaysWhy() {
        String why = ReportOwnership.foreign(report(Map.of("worker-a", worker(40, true))), "worker-b", 40);
        assertThat(why).as("another run's report").isNotNull()
                .contains("the report under run id benchmark-20261206T120000Z is another run's (its 40 requests came"
                        + " from worker-a, not from this run's worker-b)", "two runs on one Kafka had the same run id", "same second", "--run-id-suffix",
                        "no report was written");
    }

    @Test
    void aReportWhereThisRunsWorkerOnlyFinishedButHadNoRequestCountedIsAnotherRuns() {
        // the later run's RunFinished may still be taken while all its request events were duplicates
        Map<String, WorkerSummary> workers = Map.of("worker-a", worker(40, true), "worker-b", worker(0, true));
        assertThat(ReportOwnership.foreign(report(workers), "worker-b", 40)).as("a finish without requests").isNotNull();
        assertThat(ReportOwnership.foreign(report(workers), "worker-b", 0)).as("a run that sent nothing").isNull();
    }

    @Test
    void aReportWithoutWorkersIsNotJudged() {
        assertThat(ReportOwnership.foreign(report(null), "worker-b", 40)).as("no workers (an import)").isNull();
        assertThat(ReportOwnership.foreign(report(Map.of()), "worker-b", 40)).as("empty workers").isNull();
    }
}

package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStop;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StopReportsTest {
    private static RunStop stop(String rule, double atMs) {
        return RunStop.newBuilder().setRule(rule).setAtMs(atMs).setDetail(rule + " detail").setRequestsEnded(3).build();
    }

    private static RunFinished finishedWith(RunStop s, int sent) {
        return RunFinished.newBuilder(finished(1_000_000_000L)).setRequestsSent(sent).setStopped(s).build();
    }

    @Test
    void aStoppedRunReportsItsRuleAndCountsOnlyWhatRan() throws Exception {
        RunFinished fin = finishedWith(stop("max_error_rate", 1234.5), 3);
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-stop", started(20, 4096).build(),
                List.of(ok(0, 100, 600, 4000, 10).build()), List.of(failed(1, "HTTP 500").build(),
                failed(2, "HTTP 500").build()), fin, null));
        assertThat(r.getStopped()).as("capstream.stopped").isNotNull();
        assertThat(r.getStopped().getRule()).isEqualTo("max_error_rate");
        assertThat(r.getStopped().getAtMs()).isEqualTo(1234.5);
        assertThat(r.getStopped().getDetail()).isEqualTo("max_error_rate detail");
        assertThat(r.getStopped().getRequestsEnded()).isEqualTo(3);
        assertThat(r.getStopped().getRequestsNotSent()).as("20 planned, 3 ran").isEqualTo(17);
        assertThat(r.getStopped().getWorkersStopped()).isEqualTo(1);
        assertThat(r.getRequests()).as("requests = completed + failed").isEqualTo(3);
        assertThat(r.getProvenance().getComplete()).as("the 17 never sent are not missing").isTrue();
        assertThat(r.getProvenance().getMissingRequestIndices()).isEmpty();
        JsonNode s = ArtifactJson.parse(r.getArtifactJson()).path("capstream").path("stopped");
        assertThat(s.path("rule").asText()).isEqualTo("max_error_rate");
        assertThat(s.path("requests_not_sent").asInt()).isEqualTo(17);
        assertThat(ArtifactJson.parse(r.getArtifactJson()).path("capstream").path("interrupted").asBoolean())
                .as("a stop rule is not an interruption").isFalse();
    }

    @Test
    void aRunNotStoppedHasNoStoppedKey() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-ok", started(1, 4096).build(),
                List.of(ok(0, 100, 600, 4000, 10).build()), List.of(), finishedWith(null, 1), null));
        assertThat(r.getStopped()).isNull();
        assertThat(ArtifactJson.parse(r.getArtifactJson()).path("capstream").has("stopped"))
                .as("left out when null (reports of runs without stop rules unchanged)").isFalse();
    }

    @Test
    void aTimeBoundedRunHasNoCountOfRequestsNotSent() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-timed", started(1000, 4096).setDurationS(10.0)
                .build(), List.of(ok(0, 100, 600, 4000, 10).build()), List.of(), finishedWith(stop("saturation", 5), 1),
                null));
        assertThat(r.getStopped().getRequestsNotSent()).as("--duration: the plan is only a bound").isNull();
        assertThat(ArtifactJson.parse(r.getArtifactJson()).path("capstream").path("stopped").has("requests_not_sent"))
                .isFalse();
    }

    @Test
    void theFirstStopIsAWorkersOwnRuleBeforeACoordinatorStop() {
        assertThat(StopReports.first(List.of(finished(1L)))).as("none stopped").isNull();
        RunStop own = stop("saturation", 900);
        RunStop ownEarlier = stop("max_consecutive_errors", 400);
        RunStop coordinator = stop(StopReports.COORDINATOR, 100);
        assertThat(StopReports.first(List.of(finishedWith(coordinator, 1), finishedWith(own, 1), finished(1L))))
                .as("the tripping worker's rule, though the coordinator's stop has an earlier at_ms").isSameAs(own);
        assertThat(StopReports.first(List.of(finishedWith(own, 1), finishedWith(ownEarlier, 1))))
                .as("the earliest own rule").isSameAs(ownEarlier);
        assertThat(StopReports.first(List.of(finishedWith(coordinator, 1)))).as("only coordinator stops")
                .isSameAs(coordinator);
    }

    @Test
    void workersStoppedCountsTheWorkersWhoseRunFinishedSaysSo() {
        Map<String, WorkerEvents> workers = Map.of("w0", new WorkerEvents(1, 1, finishedWith(stop("max_error_rate", 5), 2)),
                "w1", new WorkerEvents(2, 0, finishedWith(stop(StopReports.COORDINATOR, 7), 2)),
                "w2", new WorkerEvents(0, 0, null));
        assertThat(StopReports.of(started(10, 4096).build(), finishedWith(stop("max_error_rate", 5), 2), 4, workers)
                .getWorkersStopped()).isEqualTo(2);
    }
}

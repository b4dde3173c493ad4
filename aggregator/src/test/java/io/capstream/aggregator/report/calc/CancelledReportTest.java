package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: requests the client cancelled on purpose are their own kind in the report: not failures, not completed,
 * in no latency percentile, present (not missing), and counted under {@code capstream.cancelled}.
 */
class CancelledReportTest {

    private static RequestFailed cancelled(int index, Long ttftMs, int chunks, long afterMs) {
        return failed(index, "cancelled by the client after " + afterMs + " ms").setErrorType("Cancelled")
                .setCancelled(true).setCancelAfterNs(afterMs * 1_000_000L).setElapsedNs(afterMs * 1_000_000L)
                .setTtftNs(ttftMs == null ? null : ttftMs * 1_000_000L).setContentChunks(chunks).build();
    }

    @Test
    void cancelledRequestsAreNeitherFailedNorCompletedNorInAnyPercentileButPresent() throws Exception {
        List<RequestCompleted> done = List.of(ok(0, 100, 1000, 1000, 50).build(), ok(1, 120, 1100, 1000, 50).build());
        // cancelled requests with a very short TTFT: were they in the percentiles, TTFT p50 would drop to 5 ms
        List<RequestFailed> ended = List.of(failed(2, "boom").build(), cancelled(3, 5L, 4, 100),
                cancelled(4, 6L, 2, 150), cancelled(5, null, 0, 90));
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-c", started(6, 4096).build(), done, ended,
                finished(3_000_000_000L), null));
        assertThat(r.getRequests()).as("requests").isEqualTo(6);
        assertThat(r.getCompleted()).as("completed").isEqualTo(2);
        assertThat(r.getFailed()).as("failed: the one failure, not the cancels").isEqualTo(1);
        assertThat(r.getFailures()).as("failures").extracting(f -> f.getRequestIndex()).containsExactly(2);
        assertThat(r.getMetrics().getTtftP50Ms()).as("TTFT p50 of the completed requests only").isEqualTo(100.0);
        assertThat(r.getProvenance().getMissingRequestIndices()).as("missing indices").isEmpty();
        assertThat(r.getProvenance().getComplete()).as("complete").isTrue();
        assertThat(r.getCancelled().getRequests()).as("cancelled").isEqualTo(3);
        assertThat(r.getCancelled().getWithFirstToken()).as("with first token").isEqualTo(2);
        assertThat(r.getCancelled().getContentChunks()).as("content chunks").isEqualTo(6L);
        assertThat(r.getCancelled().getCancelAfterP50Ms()).as("cancel time p50, ms").isEqualTo(100.0);
        assertThat(r.getCancelled().getRequestIndices()).as("indices").containsExactly(3, 4, 5);

        JsonNode a = ArtifactJson.parse(r.getArtifactJson());
        assertThat(a.path("failed").asInt()).as("artifact failed").isEqualTo(1);
        assertThat(a.path("capstream").path("cancelled").path("requests").asInt()).as("capstream.cancelled.requests")
                .isEqualTo(3);
        assertThat(a.path("capstream").path("cancelled").path("request_indices").toString())
                .as("capstream.cancelled.request_indices").isEqualTo("[3,4,5]");
    }

    @Test
    void aRunWithoutCancelsHasNoCancelledSection() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-n", started(2, 4096).build(),
                List.of(ok(0, 100, 1000, 1000, 50).build()), List.of(failed(1, "boom").build()),
                finished(2_000_000_000L), null));
        assertThat(r.getCancelled()).as("cancelled of a run without cancels").isNull();
        assertThat(ArtifactJson.parse(r.getArtifactJson()).path("capstream").has("cancelled"))
                .as("capstream.cancelled key").isFalse();
    }
}

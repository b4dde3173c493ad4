package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;

/** Small builders of run events for calculator tests (times in ns). */
final class Fixtures {
    private Fixtures() {
    }

    /** The repository's testdata/ (system property capstream.testdata.dir, set by the parent pom, else ../testdata). */
    static java.nio.file.Path shared() {
        String p = System.getProperty("capstream.testdata.dir");
        return p != null ? java.nio.file.Path.of(p) : java.nio.file.Path.of("..", "testdata");
    }

    static RunStarted.Builder started(int requests, int planned) {
        List<Integer> plan = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            plan.add(planned);
        }
        return RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1")
                .setModel("test-model")
                .setEngine("capstream-sim")
                .setRequests(requests)
                .setConcurrency(1)
                .setContextTokens(planned)
                .setMaxContextTokens(131072)
                .setMaxTokens(256)
                .setThinkingMode("disabled")
                .setPlannedContextTokens(plan)
                .setStartedAt("2026-08-21T14:49:04Z")
                .setStartedAtEpochMs(1_787_323_744_000L);
    }

    /** A usage-sourced success: ttft/e2e in ms (exact ns), prompt, completion tokens and chunks. */
    static RequestCompleted.Builder ok(int index, long ttftMs, long e2eMs, long prompt, long completion) {
        return RequestCompleted.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(4096)
                .setTtftNs(ttftMs * 1_000_000L)
                .setE2eNs(e2eMs * 1_000_000L)
                .setPromptTokens(prompt)
                .setCompletionTokens(completion)
                .setOutputTokenSource("usage")
                .setContentChunks((int) completion)
                .setReasoningChunks(0);
    }

    static RequestFailed.Builder failed(int index, String message) {
        return RequestFailed.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(4096)
                .setErrorType("ValueError")
                .setErrorMessage(message)
                .setErrorMessageTruncated(message == null ? null : false);
    }

    static RunFinished finished(long wallNs) {
        return RunFinished.newBuilder()
                .setWallClockNs(wallNs)
                .setStartedAt("2026-08-21T14:49:04Z")
                .setFinishedAt("2026-08-21T14:49:10Z")
                .setStartedAtEpochMs(1_787_323_744_000L)
                .setFinishedAtEpochMs(1_787_323_750_000L)
                .setRequestsSent(0)
                .build();
    }
}

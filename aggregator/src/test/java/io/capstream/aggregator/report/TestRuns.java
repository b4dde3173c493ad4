package io.capstream.aggregator.report;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Synthetic runs with predictable metrics. Request i (0-based): TTFO = TTFT = (i+1) x 10 ms,
 * E2E = TTFT + 1 s, prompt_tokens = 100 + i, completion_tokens = 51 (usage), 51 content chunks.
 * Wall clock 2 s. Hence for n = 10 with no failures: ttft p50 = 50 ms, p95 = 100 ms, e2e p50 =
 * 1050 ms, p95 = 1100 ms, prompt_tokens = 1045, output_tokens = 510, throughput = 255 tok/s.
 */
final class TestRuns {
    static final long MS = 1_000_000L;

    private TestRuns() {
    }

    static RunEvent envelope(String runId, String eventId, Object payload) {
        return RunEvent.newBuilder().setRunId(runId).setEventId(eventId).setWorkerId("w0")
                .setEmittedAtMs(1_780_000_000_000L).setPayload(payload).build();
    }

    static RunEvent started(String runId, int n, String origin) {
        List<Integer> plan = new ArrayList<>(Collections.nCopies(n, 4096));
        RunStarted s = RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel("test-model").setEngine("vllm")
                .setRequests(n).setConcurrency(2).setMaxTokens(64).setContextTokens(4096)
                .setMaxContextTokens(32768).setThinkingMode("disabled")
                .setPlannedContextTokens(plan)
                .setStartedAt("2026-08-01T12:00:00Z").setStartedAtEpochMs(1_785_585_600_000L)
                .setOrigin(origin)
                .build();
        return envelope(runId, runId + "-start", s);
    }

    static RunEvent completed(String runId, int i) {
        long ttft = (i + 1) * 10 * MS;
        RequestCompleted c = RequestCompleted.newBuilder()
                .setRequestIndex(i).setPlannedContextTokens(4096)
                .setTtfoNs(ttft).setTtftNs(ttft).setE2eNs(ttft + 1000 * MS)
                .setPromptTokens(100L + i).setCompletionTokens(51L).setOutputTokenSource("usage")
                .setContentChunks(51).setReasoningChunks(0)
                .build();
        return envelope(runId, runId + "-req-" + i, c);
    }

    static RunEvent failed(String runId, int i) {
        RequestFailed f = RequestFailed.newBuilder()
                .setRequestIndex(i).setPlannedContextTokens(4096)
                .setErrorType("ValueError").setErrorMessage("stream completed without visible content")
                .setErrorMessageTruncated(false)
                .build();
        return envelope(runId, runId + "-req-" + i, f);
    }

    static RunEvent finished(String runId, int sent) {
        RunFinished f = RunFinished.newBuilder()
                .setWallClockNs(2000 * MS).setStartedAt("2026-08-01T12:00:00Z").setFinishedAt("2026-08-01T12:00:02Z")
                .setStartedAtEpochMs(1_785_585_600_000L).setFinishedAtEpochMs(1_785_585_602_000L)
                .setRequestsSent(sent)
                .build();
        return envelope(runId, runId + "-finish", f);
    }

    /**
     * A run split among workers as {@code run --workers N} does: RunStarted (expected_workers = N,
     * from the coordinator "coordinator"), request i from worker {@code w<i % N>} (completed), and
     * one RunFinished per worker with its share, {@code shares} = N and a clock offset of
     * {@code k x 0.75 - 0.5} ms (uncertainty 0.25 ms).
     *
     * @return RunStarted, the n requests in index order, the N RunFinished events in share order
     */
    static List<RunEvent> distributed(String runId, int n, int workers) {
        List<RunEvent> out = new ArrayList<>();
        RunEvent start = started(runId, n, Origins.LIVE);
        ((RunStarted) start.getPayload()).setExpectedWorkers(workers);
        start.setWorkerId("coordinator");
        out.add(start);
        int[] sent = new int[workers];
        for (int i = 0; i < n; i++) {
            RunEvent e = completed(runId, i);
            e.setWorkerId("w" + (i % workers));
            sent[i % workers]++;
            out.add(e);
        }
        for (int k = 0; k < workers; k++) {
            out.add(workerFinished(runId, k, workers, sent[k]));
        }
        return out;
    }

    /** @return worker {@code w<k>}'s RunFinished of a distributed run (see {@link #distributed}) */
    static RunEvent workerFinished(String runId, int k, int workers, int sent) {
        RunEvent e = finished(runId, sent);
        e.setWorkerId("w" + k);
        e.setEventId(runId + "-finish-" + k);
        RunFinished f = (RunFinished) e.getPayload();
        f.setShare(k);
        f.setShares(workers);
        f.setClockOffsetMs(k * 0.75 - 0.5);
        f.setClockOffsetUncertaintyMs(0.25);
        return e;
    }

    /** @return the number of entries in a store */
    static int entries(KeyValueStore<String, ?> store) {
        int n = 0;
        try (KeyValueIterator<String, ?> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /** @return RunStarted, n completed requests in index order, RunFinished */
    static List<RunEvent> run(String runId, int n) {
        List<RunEvent> out = new ArrayList<>();
        out.add(started(runId, n, Origins.LIVE));
        for (int i = 0; i < n; i++) {
            out.add(completed(runId, i));
        }
        out.add(finished(runId, n));
        return out;
    }
}

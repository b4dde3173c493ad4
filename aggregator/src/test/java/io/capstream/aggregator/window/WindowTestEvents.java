package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import java.util.UUID;

/** Builders of request and heartbeat events for window tests. */
public final class WindowTestEvents {
    /** Target of test events. */
    public static final String TARGET = "http://127.0.0.1:8000/v1";
    /** Model of test events. */
    public static final String MODEL = "sim-model";

    private WindowTestEvents() {
    }

    /**
     * @param runId         run id
     * @param index         request index
     * @param completedAtMs completion time, epoch ms
     * @param ttftMs        TTFT (= TTFO), ms
     * @param e2eMs         E2E, ms
     * @param outputTokens  usage completion tokens
     * @return a RequestCompleted event (planned context 3000 tokens, prompt tokens 3000)
     */
    public static RunEvent completed(String runId, int index, long completedAtMs, double ttftMs, double e2eMs,
                                     long outputTokens) {
        RequestCompleted c = RequestCompleted.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(3000)
                .setTarget(TARGET)
                .setModel(MODEL)
                .setTtftNs(Math.round(ttftMs * 1e6))
                .setTtfoNs(Math.round(ttftMs * 1e6))
                .setE2eNs(Math.round(e2eMs * 1e6))
                .setPromptTokens(3000L)
                .setCompletionTokens(outputTokens)
                .setOutputTokenSource("usage")
                .setContentChunks((int) outputTokens)
                .setCompletedAtEpochMs(completedAtMs)
                .build();
        return envelope(runId, completedAtMs, c);
    }

    /**
     * @param runId         run id
     * @param index         request index
     * @param completedAtMs failure time, epoch ms
     * @param errorType     reference error class name
     * @return a RequestFailed event
     */
    public static RunEvent failed(String runId, int index, long completedAtMs, String errorType) {
        RequestFailed f = RequestFailed.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(3000)
                .setTarget(TARGET)
                .setModel(MODEL)
                .setErrorType(errorType)
                .setCompletedAtEpochMs(completedAtMs)
                .build();
        return envelope(runId, completedAtMs, f);
    }

    /**
     * @param emittedAtMs emission time, epoch ms
     * @return a heartbeat event
     */
    public static RunEvent heartbeat(long emittedAtMs) {
        return envelope("heartbeat-worker", emittedAtMs, new Heartbeat(TARGET, MODEL, java.util.Map.of(), null));
    }

    /**
     * @param runId       run id
     * @param emittedAtMs emission time, epoch ms
     * @param payload     any RunEvent payload
     * @return the envelope
     */
    public static RunEvent envelopeOf(String runId, long emittedAtMs, Object payload) {
        return envelope(runId, emittedAtMs, payload);
    }

    private static RunEvent envelope(String runId, long emittedAtMs, Object payload) {
        return RunEvent.newBuilder()
                .setRunId(runId)
                .setEventId(UUID.randomUUID().toString())
                .setWorkerId("test-worker")
                .setEmittedAtMs(emittedAtMs)
                .setPayload(payload)
                .build();
    }
}

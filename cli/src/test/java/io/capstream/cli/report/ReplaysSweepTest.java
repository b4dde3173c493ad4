package io.capstream.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.SweepStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replayed step of a sweep is a single run: it must not change the original sweep's curve (issue 12). */
class ReplaysSweepTest {
    @Test
    void rekeyDropsTheSweepStepAndKeepsTheSlos() {
        SweepStep step = SweepStep.newBuilder().setSweepId("sweep-1").setStep(2).setAxis("concurrency").setValue(2)
                .setMode("grid").setRepeat(false).setStepsPlanned(3).build();
        RunStarted started = RunStarted.newBuilder().setBaseUrl("http://127.0.0.1:8000/v1").setModel("m")
                .setEngine("capstream-sim").setRequests(1).setConcurrency(2).setContextTokens(256)
                .setMaxContextTokens(4096).setMaxTokens(32).setThinkingMode("default").setPlannedContextTokens(List.of(256))
                .setStartedAt("2026-12-01T12:00:00Z").setStartedAtEpochMs(1L).setSlos(List.of("ttft_p95_ms<=300"))
                .setSweep(step).build();
        RunEvent e = RunEvent.newBuilder().setRunId("sweep-1-s2").setEventId("e1").setWorkerId("w").setEmittedAtMs(1L)
                .setPayload(started).build();
        List<RunEvent> out = Replays.rekey(List.of(e), "sweep-1-s2-replay-x");
        RunStarted replayed = (RunStarted) out.get(0).getPayload();
        assertNull(replayed.getSweep());
        assertEquals(List.of("ttft_p95_ms<=300"), replayed.getSlos());
        assertEquals("replay:sweep-1-s2", replayed.getOrigin());
        assertNotNull(((RunStarted) e.getPayload()).getSweep(), "the original is not modified");
        // replay --sweep-id: the step stays a step, of the replay's sweep
        RunStarted inSweep = (RunStarted) Replays.rekeyStep(List.of(e), "sweep-1-replay-x-s2", "sweep-1-replay-x").get(0)
                .getPayload();
        assertEquals(SweepStep.newBuilder(((RunStarted) e.getPayload()).getSweep()).setSweepId("sweep-1-replay-x")
                .build(), inSweep.getSweep());
        assertEquals("replay:sweep-1-s2", inSweep.getOrigin());
    }
}

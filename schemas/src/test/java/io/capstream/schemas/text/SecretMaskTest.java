package io.capstream.schemas.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.ServerMetrics;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SecretMask}: secrets and URL user-info masked in texts and in every string of an Avro record. */
class SecretMaskTest {
    private static final SecretMask MASK = SecretMask.of(List.of("key-0123456789", "pw-abcdef", "abc"));

    @Test
    void masksEverySecretAndUrlUserInfoInAText() {
        assertEquals("401: key *** for http://***@h/v1, *** again; abc stays (too short)",
                MASK.apply("401: key key-0123456789 for http://u:pw-abcdef@h/v1, pw-abcdef again; abc stays (too short)"));
        assertEquals("cut ***", MASK.apply("cut key-01234", true), "a start of a secret at the end of a cut text");
        assertEquals(2, MASK.size(), "values shorter than 4 characters are dropped");
        assertEquals("http://***@h", SecretMask.NONE.apply("http://u:p@h"), "URL user-info without known secrets");
    }

    @Test
    void masksEveryStringOfANestedRecordInPlaceAndLeavesTheNumbers() {
        RunEvent e = RunEvent.newBuilder().setRunId("r").setEventId("e").setWorkerId("w").setEmittedAtMs(1)
                .setPayload(RequestFailed.newBuilder().setRequestIndex(0).setPlannedContextTokens(1).setTarget("http://u:pw-abcdef@h/v1")
                        .setModel("m").setErrorType("HTTPError")
                        .setErrorMessage("echo: X-Api-Key: key-0123456789").setErrorMessageTruncated(false)
                        .setScheduledStartNs(0).setStartNs(0).setClientQueueNs(0).setContentChunks(0)
                        .setReasoningChunks(0).setCompletedAtEpochMs(1).build())
                .build();
        assertSame(e, MASK.apply(e));
        RequestFailed f = (RequestFailed) e.getPayload();
        assertEquals("http://***@h/v1", f.getTarget());
        assertEquals("echo: X-Api-Key: ***", f.getErrorMessage());
        assertEquals("m", f.getModel());
    }

    @Test
    void masksMapKeysAndValuesAndListsOfStringsAndKeepsUnchangedCollections() {
        List<Integer> gaps = List.of(1, 2, 3);
        RequestCompleted c = RequestCompleted.newBuilder().setRequestIndex(0).setPlannedContextTokens(1).setTarget("t").setModel("m")
                .setScheduledStartNs(0).setStartNs(0).setClientQueueNs(0).setTtfoNs(1L).setTtftNs(1L).setE2eNs(2)
                .setContentChunks(1).setReasoningChunks(0).setOutputChunkGapsUs(gaps).setOutputChunkGapsDropped(0)
                .setFinishReason("stop: key-0123456789").setCompletedAtEpochMs(1).setOutputTokenSource("usage").build();
        MASK.apply(c);
        assertEquals("stop: ***", c.getFinishReason());
        assertSame(gaps, c.getOutputChunkGapsUs(), "a list of numbers is not copied");

        ServerMetrics sm = ServerMetrics.newBuilder().setUrl("http://u:pw-abcdef@h/metrics").setIntervalMs(1000)
                .setScrapes(1).setFailedScrapes(1).setFirstError("GET http://u:pw-abcdef@h/metrics answered 500: pw-abcdef")
                .setTMs(List.of()).setSeries(Map.of()).build();
        RunFinished rf = RunFinished.newBuilder().setWallClockNs(1).setStartedAt("a").setFinishedAt("b")
                .setStartedAtEpochMs(0).setFinishedAtEpochMs(1).setRequestsSent(0).setInterrupted(false)
                .setEventsUndelivered(0).setServerMetrics(sm).build();
        MASK.apply(rf);
        assertEquals("http://***@h/metrics", rf.getServerMetrics().getUrl());
        assertEquals("GET http://***@h/metrics answered 500: ***", rf.getServerMetrics().getFirstError());

        Map<String, Double> samples = Map.of("key-0123456789_total", 1.0);
        io.capstream.schemas.avro.Heartbeat hb = io.capstream.schemas.avro.Heartbeat.newBuilder().setTarget("t")
                .setModel("m").setServerSamples(samples).build();
        MASK.apply(hb);
        assertThat(hb.getServerSamples()).as("map keys: " + hb.getServerSamples()).containsKey("***_total");
    }
}

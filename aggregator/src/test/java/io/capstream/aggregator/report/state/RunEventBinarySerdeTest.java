package io.capstream.aggregator.report.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeriesInfo;
import io.capstream.schemas.serde.RandomRecords;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class RunEventBinarySerdeTest {
    private final RunEventBinarySerde serde = new RunEventBinarySerde();

    @Test
    void eventsOfEveryPayloadTypeRoundTrip() {
        Set<String> payloadTypes = new TreeSet<>();
        for (RunEvent e : RandomRecords.of(RunEvent.class, 80, 42)) {
            assertEquals(e, serde.deserializer().deserialize("t", serde.serializer().serialize("t", e)));
            payloadTypes.add(((SpecificRecord) e.getPayload()).getSchema().getName());
        }
        assertEquals(new TreeSet<>(RunEvent.getClassSchema().getField("payload").schema().getTypes().stream()
                .map(Schema::getName).toList()), payloadTypes, "every payload branch was exercised");
    }

    /**
     * The events store keeps a run's events in this encoding until its report is published; the bytes of three
     * events were captured once. A failure here means that the store's format changed: a changelog written by the
     * previous version (open runs during an upgrade) no longer restores. If that is intended, delete the fixture
     * and capture it again ({@code -Dcapstream.serde.capture=true}).
     */
    @Test
    void capturedBytesDecodeToTheEventsTheyWereWrittenFrom() {
        List<RunEvent> events = List.of(
                envelope("e-1", RequestCompleted.newBuilder().setRequestIndex(3).setPlannedContextTokens(4096)
                        .setTtftNs(25_000_000L).setE2eNs(1_025_000_000L).setPromptTokens(103L).setCompletionTokens(51L)
                        .setOutputTokenSource("usage").setContentChunks(51).build()),
                envelope("e-2", Heartbeat.newBuilder().setTarget("http://127.0.0.1:8000/v1").setModel("m")
                        .setServerSamples(Map.of("requests_running", 2.0)).setServerTMs(-12.5).build()),
                envelope("e-3", RunFinished.newBuilder().setWallClockNs(2_000_000_000L)
                        .setStartedAt("2026-08-01T12:00:00Z").setFinishedAt("2026-08-01T12:00:02Z")
                        .setStartedAtEpochMs(1_785_585_600_000L).setFinishedAtEpochMs(1_785_585_602_000L)
                        .setRequestsSent(4).setServerScraping(ServerScraping.newBuilder()
                                .setUrl("http://127.0.0.1:8000/metrics").setIntervalMs(1000).setFailedScrapes(1)
                                .setSeries(List.of(new ServerSeriesInfo("requests_running",
                                        "vllm:num_requests_running", "gauge"))).build())
                        .build()));
        for (int i = 0; i < events.size(); i++) {
            byte[] current = serde.serializer().serialize("t", events.get(i));
            byte[] captured = io.capstream.aggregator.serde.SerdeFixtures.captured("run-event-" + (i + 1) + ".bin",
                    current);
            org.assertj.core.api.Assertions.assertThat(serde.deserializer().deserialize("t", captured))
                    .as("event %d decoded from its captured bytes", i + 1).isEqualTo(events.get(i));
            org.assertj.core.api.Assertions.assertThat(current).as("event %d's encoding today", i + 1)
                    .isEqualTo(captured);
            // the same event as the versions before issues 29, 30 and 33 wrote it (their records had fewer fields)
            for (String version : List.of("29", "30", "33")) {
                byte[] before = io.capstream.aggregator.serde.SerdeFixtures.captured(
                        "run-event-" + (i + 1) + "-before-issue-" + version + ".bin", null);
                org.assertj.core.api.Assertions.assertThat(serde.deserializer().deserialize("t", before))
                        .as("event %d decoded from the bytes written before issue %s", i + 1, version)
                        .isEqualTo(events.get(i));
            }
        }
    }

    private static RunEvent envelope(String eventId, Object payload) {
        return RunEvent.newBuilder().setRunId("run-1").setEventId(eventId).setWorkerId("w0")
                .setEmittedAtMs(1_785_585_600_500L).setPayload(payload).build();
    }

    @Test
    void returnedBytesAreNotOverwrittenByTheNextEvent() {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 2, 3);
        byte[] first = serde.serializer().serialize("t", events.get(0));
        byte[] copy = first.clone();
        serde.serializer().serialize("t", events.get(1));
        assertArrayEquals(copy, first);
        assertEquals(events.get(0), serde.deserializer().deserialize("t", first));
    }

    @Test
    void threadsShareOneSerde() throws Exception {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 200, 11);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    int ok = 0;
                    for (RunEvent e : events) {
                        if (e.equals(serde.deserializer().deserialize("t", serde.serializer().serialize("t", e)))) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(events.size(), r.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A RunStarted as the version before {@code http_client} wrote it (its schema kept beside the serde) is still
     * read: an open run's changelog restores across the upgrade, the field null.
     */
    @Test
    void aRunStartedWrittenBeforeTheHttpClientWasRecordedIsRead() throws Exception {
        io.capstream.schemas.avro.RunStarted started = RandomRecords.one(io.capstream.schemas.avro.RunStarted.class, 17);
        started.setHttpClient(null);
        RunEvent event = envelope("e-9", started);
        Schema before;
        try (java.io.InputStream in = RunEventBinarySerde.class.getResourceAsStream("run-event-before-http-client.avsc")) {
            before = new Schema.Parser().parse(in);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.specific.SpecificDatumWriter<RunEvent>(before).write(event, enc);
        enc.flush();
        org.assertj.core.api.Assertions.assertThat(before.toString()).as("the earlier schema has no http_client")
                .doesNotContain("http_client");
        org.assertj.core.api.Assertions.assertThat(serde.deserializer().deserialize("t", out.toByteArray()))
                .as("the RunStarted written before http_client existed").isEqualTo(event);
    }

    @Test
    void nullIsNullBothWaysAndTruncatedBytesFail() {
        assertNull(serde.serializer().serialize("t", null));
        assertNull(serde.deserializer().deserialize("t", null));
        byte[] bytes = serde.serializer().serialize("t", RandomRecords.one(RunEvent.class, 5));
        assertThrows(UncheckedIOException.class,
                () -> serde.deserializer().deserialize("t", Arrays.copyOf(bytes, bytes.length / 2)));
    }
}

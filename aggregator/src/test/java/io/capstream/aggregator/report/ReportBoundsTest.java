package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.aggregator.report.calc.WorkerEvents;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an event may claim and how large a report record may be (issue 11): events outside the
 * bounds are dead-lettered instead of stopping the topology; every record on the reports topic
 * stays below the broker's default message size however many rows the run has.
 */
class ReportBoundsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** The broker's default {@code message.max.bytes}: the most a record on a default topic may have. */
    private static final int BROKER_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    @TempDir
    Path stateDir;

    private String registry;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> events;
    private TestOutputTopic<String, byte[]> reports;
    private TestOutputTopic<String, byte[]> dlq;
    private Serializer<RunEvent> eventSerializer;
    private Deserializer<BenchmarkReport> reportDeserializer;

    @BeforeEach
    void setUp() {
        registry = "mock://report-bounds-" + UUID.randomUUID();
        ReportTopologyConfig config = ReportTopologyConfig.defaults(registry).withIncompleteDeadline(DEADLINE);
        StreamsSettings settings = StreamsSettings.defaults("report-bounds-test", "127.0.0.1:9", stateDir);
        driver = new TopologyTestDriver(ReportTopology.build(config), settings.toProperties());
        events = driver.createInputTopic(Topics.EVENTS, new StringSerializer(), new ByteArraySerializer());
        reports = driver.createOutputTopic(Topics.REPORTS, new StringDeserializer(), new ByteArrayDeserializer());
        dlq = driver.createOutputTopic(Topics.EVENTS_DLQ, new StringDeserializer(), new ByteArrayDeserializer());
        eventSerializer = SpecificAvroSerde.forValue(RunEvent.class, registry).serializer();
        reportDeserializer = SpecificAvroSerde.forValue(BenchmarkReport.class, registry).deserializer();
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(RunEvent e) {
        events.pipeInput(e.getRunId(), eventSerializer.serialize(Topics.EVENTS, e));
    }

    private static Map<String, String> headers(TestRecord<String, byte[]> r) {
        Map<String, String> out = new HashMap<>();
        for (Header h : r.headers()) {
            out.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
        }
        return out;
    }

    private BenchmarkReport singleReport(String runId) {
        List<TestRecord<String, byte[]>> all = reports.readRecordsToList();
        assertEquals(1, all.size(), "reports: " + all.stream().map(TestRecord::key).toList());
        assertEquals(runId, all.get(0).key());
        assertTrue(all.get(0).value().length < BROKER_DEFAULT_MAX_MESSAGE_BYTES,
                "report record of " + all.get(0).value().length + " bytes");
        return reportDeserializer.deserialize(Topics.REPORTS, all.get(0).value());
    }

    @Test
    void runStartedClaimingThreeMillionRequestsIsDeadLetteredAndTheNextRunStillGetsItsReport() {
        // the 387-byte RunStarted of issue 11: no plan, 3,000,000 requests claimed
        RunEvent huge = TestRuns.started("run-huge", 0, Origins.LIVE);
        ((RunStarted) huge.getPayload()).setRequests(3_000_000);
        byte[] bytes = eventSerializer.serialize(Topics.EVENTS, huge);
        events.pipeInput("run-huge", bytes);
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));

        TestRecord<String, byte[]> dead = dlq.readRecord();
        assertEquals("run-huge", dead.key());
        assertEquals(bytes.length, dead.value().length, "the original bytes");
        Map<String, String> h = headers(dead);
        assertEquals(Topics.EVENTS, h.get(EventsSource.H_SOURCE_TOPIC));
        String message = h.get(EventsSource.H_ERROR_MESSAGE);
        assertThat(message).contains("3000000", "100000");
        assertTrue(dlq.isEmpty());
        assertTrue(reports.isEmpty(), "the dead-lettered RunStarted opens no run");

        TestRuns.run("run-next", 10).forEach(this::send);
        BenchmarkReport next = singleReport("run-next");
        assertEquals(10, next.getCompleted());
        assertTrue(next.getProvenance().getComplete());
    }

    @Test
    void requestIndicesOutsideTheBoundAreDeadLettered() {
        RunEvent far = TestRuns.completed("run-far", 0);
        ((RequestCompleted) far.getPayload()).setRequestIndex(50_000_000);
        send(far);
        RunEvent atBound = TestRuns.completed("run-far", 0);
        ((RequestCompleted) atBound.getPayload()).setRequestIndex(100_000);
        atBound.setEventId("at-bound");
        send(atBound);

        List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
        assertEquals(2, dead.size());
        assertThat(headers(dead.get(0)).get(EventsSource.H_ERROR_MESSAGE)).contains("50000000");
        assertThat(headers(dead.get(1)).get(EventsSource.H_ERROR_MESSAGE)).contains("100000");

        TestRuns.run("run-far", 5).forEach(this::send);
        BenchmarkReport r = singleReport("run-far");
        assertEquals(5, r.getCompleted());
        assertEquals(0, r.getProvenance().getDuplicateEvents());
        assertTrue(r.getProvenance().getComplete());
    }

    @Test
    void aReportLargerThanTheBrokerLimitLeavesOnlyRecordsBelowIt() throws Exception {
        int n = 3_000;
        List<RunEvent> run = TestRuns.run("run-big", n);
        run.forEach(this::send);
        BenchmarkReport header = singleReport("run-big");
        assertEquals(n, header.getCompleted());
        assertEquals(n, header.getMetrics().getTtftSamples());
        assertTrue(header.getProvenance().getComplete());
        assertEquals("", header.getArtifactJson(), "the artifact travels in chunks");
        assertEquals(List.of(), header.getRequestTimings());
        assertEquals(n, header.getWorkers().get("w0").getRequests(), "the summary record keeps the workers");

        // the chunks: bounded, in index order, keyed run|index, and together exactly today's artifact
        TestOutputTopic<String, byte[]> chunkTopic = driver.createOutputTopic(Topics.REPORT_CHUNKS,
                new StringDeserializer(), new ByteArrayDeserializer());
        Deserializer<ReportChunk> chunkDeserializer = SpecificAvroSerde.forValue(ReportChunk.class, registry).deserializer();
        List<TestRecord<String, byte[]>> raw = chunkTopic.readRecordsToList();
        assertEquals(header.getArtifactChunks(), raw.size());
        assertTrue(raw.size() >= 2, raw.size() + " chunks");
        ReportChunks.Assembly assembly = new ReportChunks.Assembly("run-big", header.getArtifactSha256(), raw.size());
        for (int i = 0; i < raw.size(); i++) {
            TestRecord<String, byte[]> r = raw.get(i);
            assertEquals("run-big|" + i, r.key());
            assertTrue(r.value().length <= ReportChunks.CHUNK_BYTES + 200, r.value().length + " bytes");
            ReportChunk c = chunkDeserializer.deserialize(Topics.REPORT_CHUNKS, r.value());
            assertEquals(i, c.getIndex());
            assertTrue(assembly.add(c));
        }
        String artifact = assembly.text();
        assertEquals(header.getArtifactBytes(), artifact.getBytes(StandardCharsets.UTF_8).length);

        // byte for byte what the calculator writes for these events (its provenance as published)
        RunStarted started = (RunStarted) run.get(0).getPayload();
        List<RequestCompleted> completed = run.subList(1, n + 1).stream()
                .map(e -> (RequestCompleted) e.getPayload()).toList();
        RunFinished finished = (RunFinished) run.get(n + 1).getPayload();
        BenchmarkReport expected = ReportCalculator.compute(new RunData("run-big", started, completed, List.of(),
                finished, header.getProvenance(), Map.of("w0", new WorkerEvents(n, 0, finished))));
        assertEquals(expected.getArtifactJson(), artifact);
        assertEquals(n, ArtifactJson.parse(artifact).path("request_timings").size());
        assertTrue(artifact.length() > BROKER_DEFAULT_MAX_MESSAGE_BYTES, artifact.length() + " bytes");
        assertEquals(0, TestRuns.entries(driver.<String, Object>getKeyValueStore(ReportTopology.EVENTS_STORE)));
    }

    @Test
    void aReportThatCannotBeComputedIsDeadLetteredWithItsRunIdAndProcessingGoesOn() {
        // a NaN wall clock cannot be written (the artifact has no NaN/Infinity): the calculator refuses it
        List<RunEvent> run = TestRuns.run("run-bad", 3);
        ((RunFinished) run.get(run.size() - 1).getPayload()).setWallClockS(Double.NaN);
        run.forEach(this::send);

        TestRecord<String, byte[]> dead = dlq.readRecord();
        assertEquals("run-bad", dead.key());
        Map<String, String> h = headers(dead);
        assertEquals("run-bad", h.get(ReportTopology.H_RUN_ID));
        assertEquals(ReportTopology.STAGE_REPORT, h.get(ReportTopology.H_ERROR_STAGE));
        assertEquals(IllegalArgumentException.class.getName(), h.get(EventsSource.H_ERROR_CLASS));
        assertThat(h.get(EventsSource.H_ERROR_MESSAGE)).as(h.toString())
                .contains("NaN/Infinity not allowed in artifact JSON at $.metrics.");
        assertEquals(h.get(EventsSource.H_ERROR_MESSAGE), new String(dead.value(), StandardCharsets.UTF_8));
        assertTrue(reports.isEmpty());

        // the dropped run's late events are not collected again; other runs go on
        send(TestRuns.completed("run-bad", 1));
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));
        assertTrue(dlq.isEmpty() && reports.isEmpty());
        TestRuns.run("run-good", 4).forEach(this::send);
        assertEquals(4, singleReport("run-good").getCompleted());
    }

    @Test
    void aReportThatCannotBeComputedAtTheDeadlineIsDeadLetteredToo() {
        List<RunEvent> run = new java.util.ArrayList<>(TestRuns.run("run-bad-late", 3));
        ((RunFinished) run.get(run.size() - 1).getPayload()).setWallClockS(Double.POSITIVE_INFINITY);
        run.remove(2); // request 1 never arrives: the deadline publishes the run
        run.forEach(this::send);
        assertTrue(dlq.isEmpty());
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));

        TestRecord<String, byte[]> dead = dlq.readRecord();
        assertEquals("run-bad-late", dead.key());
        Map<String, String> h = headers(dead);
        assertEquals("run-bad-late", h.get(ReportTopology.H_RUN_ID));
        assertEquals(null, h.get(EventsSource.H_SOURCE_TOPIC), "a punctuation has no source record");
        assertTrue(reports.isEmpty());
        TestRuns.run("run-after", 2).forEach(this::send);
        assertEquals(2, singleReport("run-after").getCompleted());
    }

    @Test
    void eventsWhoseKeyIsNotTheirRunIdAreDeadLetteredNamingTheRule() {
        // a keyless producer (issue 11, item 11): before, its events spread over partitions and each
        // partition published an incomplete fragment report under the one run id
        RunEvent started = TestRuns.started("run-keyless", 1, Origins.LIVE);
        byte[] startedBytes = eventSerializer.serialize(Topics.EVENTS, started);
        events.pipeInput((String) null, startedBytes);
        events.pipeInput("another-key", eventSerializer.serialize(Topics.EVENTS, TestRuns.completed("run-keyless", 0)));
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));

        List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
        assertEquals(2, dead.size());
        assertEquals(startedBytes.length, dead.get(0).value().length, "the original bytes");
        Map<String, String> h = headers(dead.get(0));
        assertEquals(EventsSource.EventKeyException.class.getName(), h.get(EventsSource.H_ERROR_CLASS));
        assertEquals("record key null (a keyless producer?) is not the event's run id 'run-keyless': produce every"
                + " event of a run with its run id as the key, so that the whole run reaches one partition",
                h.get(EventsSource.H_ERROR_MESSAGE));
        assertThat(headers(dead.get(1)).get(EventsSource.H_ERROR_MESSAGE)).startsWith("record key 'another-key'");
        assertTrue(reports.isEmpty(), "no fragment report: the run never opened");

        // the same run keyed by its run id gets its (one, complete) report
        send(TestRuns.started("run-keyed", 1, Origins.LIVE));
        send(TestRuns.completed("run-keyed", 0));
        send(TestRuns.finished("run-keyed", 1));
        assertTrue(singleReport("run-keyed").getProvenance().getComplete());
    }
}

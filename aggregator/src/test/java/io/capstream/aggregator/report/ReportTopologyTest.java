package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.WorkerSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report topology on {@link TopologyTestDriver}: completion, order, duplicates, deadline, DLQ. */
class ReportTopologyTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final double EPS = 1e-9;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> events;
    private TestOutputTopic<String, BenchmarkReport> reports;
    private TestOutputTopic<String, byte[]> dlq;
    private Serializer<RunEvent> eventSerializer;

    @BeforeEach
    void setUp() {
        String registry = "mock://report-topology-" + UUID.randomUUID();
        ReportTopologyConfig config = ReportTopologyConfig.defaults(registry).withIncompleteDeadline(DEADLINE);
        StreamsSettings settings = StreamsSettings.defaults("report-test", "127.0.0.1:9", stateDir);
        driver = new TopologyTestDriver(ReportTopology.build(config), settings.toProperties());
        events = driver.createInputTopic(Topics.EVENTS, new StringSerializer(), new ByteArraySerializer());
        reports = driver.createOutputTopic(Topics.REPORTS, new StringDeserializer(),
                SpecificAvroSerde.forValue(BenchmarkReport.class, registry).deserializer());
        dlq = driver.createOutputTopic(Topics.EVENTS_DLQ, new StringDeserializer(), new ByteArrayDeserializer());
        eventSerializer = SpecificAvroSerde.forValue(RunEvent.class, registry).serializer();
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(RunEvent e) {
        events.pipeInput(e.getRunId(), eventSerializer.serialize(Topics.EVENTS, e));
    }

    private void sendAll(List<RunEvent> list) {
        list.forEach(this::send);
    }

    private static void assertSyntheticMetrics(BenchmarkReport r, int n) {
        Metrics m = r.getMetrics();
        assertEquals(n, r.getCompleted());
        assertEquals(0, r.getFailed());
        assertEquals(n, r.getRequests());
        assertEquals(n, r.getRequestTimings().size());
        assertEquals(n, m.getTtftSamples());
        // nearest rank: p50 = value at ceil(0.5 n), p95 = value at ceil(0.95 n) (spec §8.1)
        int p50 = (int) Math.ceil(0.50 * n);
        int p95 = (int) Math.ceil(0.95 * n);
        assertEquals(p50 * 10.0, m.getTtftP50Ms(), EPS);
        assertEquals(p95 * 10.0, m.getTtftP95Ms(), EPS);
        assertEquals(1000.0 + p50 * 10.0, m.getE2eP50Ms(), EPS);
        assertEquals(1000.0 + p95 * 10.0, m.getE2eP95Ms(), EPS);
        assertEquals(1000.0, m.getGenerationP50Ms(), EPS);
        assertEquals(50.0, m.getDecodeTokSP50(), EPS);
        assertEquals(100L * n + (long) n * (n - 1) / 2, (long) m.getPromptTokens());
        assertEquals(51L * n, m.getOutputTokens());
        assertEquals(51.0 * n / 2.0, m.getThroughputTokS(), EPS);
        assertEquals(Map.of("usage", n), m.getOutputTokenSources());
        assertEquals("capacity-v3", r.getMeasurementProtocol());
        for (int i = 0; i < n; i++) {
            assertEquals(i, r.getRequestTimings().get(i).getRequestIndex());
        }
    }

    private List<KeyValue<String, BenchmarkReport>> readReports() {
        return reports.readKeyValuesToList();
    }

    private BenchmarkReport single() {
        List<KeyValue<String, BenchmarkReport>> all = readReports();
        assertEquals(1, all.size(), "reports: " + all.stream().map(kv -> kv.key).toList());
        assertEquals(all.get(0).key, all.get(0).value.getRunId());
        return all.get(0).value;
    }

    private int storedEvents() {
        return TestRuns.entries(driver.<String, Object>getKeyValueStore(ReportTopology.EVENTS_STORE));
    }

    @Test
    void completeRunInOrderIsPublishedOnceWithExactMetricsAndStateIsDeleted() {
        List<RunEvent> run = TestRuns.run("run-a", 10);
        sendAll(run.subList(0, run.size() - 1));
        assertTrue(reports.isEmpty(), "no report before RunFinished");
        send(run.get(run.size() - 1));

        BenchmarkReport r = single();
        assertEquals("run-a", r.getRunId());
        assertSyntheticMetrics(r, 10);
        assertEquals(50.0, r.getMetrics().getTtftP50Ms(), EPS);
        assertEquals(100.0, r.getMetrics().getTtftP95Ms(), EPS);
        assertEquals(1050.0, r.getMetrics().getE2eP50Ms(), EPS);
        assertEquals(1100.0, r.getMetrics().getE2eP95Ms(), EPS);
        assertEquals(2000.0, r.getWallClockMs(), EPS);
        assertEquals(ReportKind.LIVE, r.getProvenance().getKind());
        assertTrue(r.getProvenance().getComplete());
        assertTrue(r.getProvenance().getRunFinishedSeen());
        assertEquals(0, r.getProvenance().getDuplicateEvents());
        assertEquals(List.of(), r.getProvenance().getMissingRequestIndices());
        assertThat(r.getArtifactJson()).contains("\"run_id\": \"run-a\"");
        assertEquals(0, storedEvents(), "the run's events are deleted after publishing");
        assertEquals(0, dlq.getQueueSize());
    }

    @Test
    void shuffledOrderGivesTheSameReport() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-shuffled", 40));
        Collections.shuffle(run, new Random(42));
        sendAll(run);
        BenchmarkReport r = single();
        assertSyntheticMetrics(r, 40);
        assertEquals(200.0, r.getMetrics().getTtftP50Ms(), EPS);
        assertEquals(380.0, r.getMetrics().getTtftP95Ms(), EPS);
    }

    @Test
    void duplicatesAreCountedOnce() {
        List<RunEvent> run = TestRuns.run("run-dup", 10);
        List<RunEvent> withDuplicates = new ArrayList<>();
        withDuplicates.add(run.get(0));
        withDuplicates.add(run.get(0)); // same event id (RunStarted)
        for (int i = 1; i <= 10; i++) {
            withDuplicates.add(run.get(i));
            if (i % 3 == 0) {
                withDuplicates.add(run.get(i)); // same event id
            }
        }
        // same request index, different event id and different values: the first one counts
        RunEvent sameIndex = TestRuns.completed("run-dup", 4);
        sameIndex.setEventId("another-id");
        ((io.capstream.schemas.avro.RequestCompleted) sameIndex.getPayload()).setTtftNs(999_000 * TestRuns.MS);
        withDuplicates.add(sameIndex);
        withDuplicates.add(run.get(11));
        sendAll(withDuplicates);

        BenchmarkReport r = single();
        assertSyntheticMetrics(r, 10);
        assertEquals(1 + 3 + 1, r.getProvenance().getDuplicateEvents());
    }

    @Test
    void runFinishedFirstWaitsForAllRequests() {
        List<RunEvent> run = TestRuns.run("run-finished-first", 10);
        send(run.get(11)); // RunFinished
        send(run.get(0)); // RunStarted
        for (int i = 10; i >= 2; i--) {
            send(run.get(i));
        }
        assertTrue(reports.isEmpty(), "request 0 is still missing");
        send(run.get(1));
        assertSyntheticMetrics(single(), 10);
    }

    @Test
    void requestsBeforeRunStarted() {
        List<RunEvent> run = TestRuns.run("run-late-start", 10);
        sendAll(run.subList(1, run.size()));
        assertTrue(reports.isEmpty());
        send(run.get(0));
        assertSyntheticMetrics(single(), 10);
    }

    @Test
    void missingRequestsArePublishedAsIncompleteAfterTheDeadline() {
        List<RunEvent> run = TestRuns.run("run-missing", 10);
        for (RunEvent e : run) {
            Object p = e.getPayload();
            if (p instanceof io.capstream.schemas.avro.RequestCompleted c
                    && (c.getRequestIndex() == 3 || c.getRequestIndex() == 7)) {
                continue;
            }
            send(e);
        }
        assertTrue(reports.isEmpty());
        driver.advanceWallClockTime(DEADLINE.minusSeconds(5));
        assertTrue(reports.isEmpty(), "not before the deadline");
        driver.advanceWallClockTime(Duration.ofSeconds(6));

        BenchmarkReport r = single();
        assertFalse(r.getProvenance().getComplete());
        assertEquals(List.of(3, 7), r.getProvenance().getMissingRequestIndices());
        assertTrue(r.getProvenance().getRunFinishedSeen());
        assertEquals(8, r.getCompleted());
        assertEquals(8, r.getMetrics().getTtftSamples());
        // rows 0,1,2,4,5,6,8,9 -> ttft 10,20,30,50,60,70,90,100 ms; p50 = 4th = 50, p95 = 8th = 100
        assertEquals(50.0, r.getMetrics().getTtftP50Ms(), EPS);
        assertEquals(100.0, r.getMetrics().getTtftP95Ms(), EPS);
        assertEquals(0, storedEvents());

        // a later event of the same run is a duplicate, not a new run
        send(run.get(4));
        driver.advanceWallClockTime(DEADLINE.plusSeconds(120));
        assertTrue(reports.isEmpty(), "no second report for a published run");
    }

    @Test
    void missingRunFinishedIsPublishedAsIncompleteAfterTheDeadline() {
        List<RunEvent> run = TestRuns.run("run-no-finish", 5);
        sendAll(run.subList(0, run.size() - 1));
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));
        BenchmarkReport r = single();
        assertFalse(r.getProvenance().getComplete());
        assertFalse(r.getProvenance().getRunFinishedSeen());
        assertEquals(List.of(), r.getProvenance().getMissingRequestIndices());
        assertEquals(5, r.getCompleted());
        assertEquals(30.0, r.getMetrics().getTtftP50Ms(), EPS);
    }

    @Test
    void poisonRecordGoesToTheDlqAndProcessingContinues() {
        byte[] poison = "not avro at all".getBytes(StandardCharsets.UTF_8);
        events.pipeInput("run-poison", poison);
        sendAll(TestRuns.run("run-after-poison", 10));

        TestRecord<String, byte[]> dead = dlq.readRecord();
        assertEquals("run-poison", dead.key());
        assertEquals("not avro at all", new String(dead.value(), StandardCharsets.UTF_8));
        Map<String, String> headers = new java.util.HashMap<>();
        for (Header h : dead.headers()) {
            headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
        }
        assertEquals(Topics.EVENTS, headers.get(EventsSource.H_SOURCE_TOPIC));
        assertEquals("0", headers.get(EventsSource.H_SOURCE_PARTITION));
        assertEquals("0", headers.get(EventsSource.H_SOURCE_OFFSET));
        assertEquals("org.apache.kafka.common.errors.SerializationException", headers.get(EventsSource.H_ERROR_CLASS));
        assertNotNull(headers.get(EventsSource.H_ERROR_MESSAGE));
        assertTrue(dlq.isEmpty());

        assertSyntheticMetrics(single(), 10);
    }

    @Test
    void interleavedRunsAreSeparated() {
        List<List<RunEvent>> runs = List.of(TestRuns.run("run-x", 10), TestRuns.run("run-y", 20),
                TestRuns.run("run-z", 7));
        int max = runs.stream().mapToInt(List::size).max().orElseThrow();
        for (int i = 0; i < max; i++) {
            for (List<RunEvent> run : runs) {
                if (i < run.size()) {
                    send(run.get(i));
                }
            }
        }
        Map<String, BenchmarkReport> byId = readReports().stream()
                .collect(Collectors.toMap(kv -> kv.key, kv -> kv.value));
        assertEquals(3, byId.size());
        assertSyntheticMetrics(byId.get("run-x"), 10);
        assertSyntheticMetrics(byId.get("run-y"), 20);
        assertSyntheticMetrics(byId.get("run-z"), 7);
        assertEquals(100.0, byId.get("run-y").getMetrics().getTtftP50Ms(), EPS);
        assertEquals(0, storedEvents());
    }

    @Test
    void failedRequestsCountButDoNotFeedStatistics() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-fail", 10));
        run.set(1 + 2, TestRuns.failed("run-fail", 2));
        run.set(1 + 9, TestRuns.failed("run-fail", 9));
        sendAll(run);
        BenchmarkReport r = single();
        assertEquals(8, r.getCompleted());
        assertEquals(2, r.getFailed());
        assertEquals(List.of(2, 9), r.getFailures().stream().map(f -> f.getRequestIndex()).toList());
        assertEquals("ValueError", r.getFailures().get(0).getErrorType());
        // rows 0,1,3..8 -> ttft 10,20,40,...,90; p50 = 4th = 50, p95 = 8th = 90
        assertEquals(50.0, r.getMetrics().getTtftP50Ms(), EPS);
        assertEquals(90.0, r.getMetrics().getTtftP95Ms(), EPS);
        assertTrue(r.getProvenance().getComplete());
    }

    @Test
    void replayedRunIsMarkedAsReplayWithTheSameMetrics() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("replay-1", 10));
        run.set(0, TestRuns.started("replay-1", 10, Origins.replayOf("run-original")));
        sendAll(run);
        BenchmarkReport r = single();
        assertSyntheticMetrics(r, 10);
        assertEquals(ReportKind.REPLAY, r.getProvenance().getKind());
        assertEquals("run-original", r.getProvenance().getReplayOf());
    }

    @Test
    void interruptedRunIsPublishedWhenEverySentRequestIsIn() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-int", 10));
        RunEvent fin = TestRuns.finished("run-int", 6);
        ((io.capstream.schemas.avro.RunFinished) fin.getPayload()).setInterrupted(true);
        sendAll(run.subList(0, 1 + 6));
        send(fin);
        BenchmarkReport r = single();
        assertFalse(r.getProvenance().getComplete());
        assertEquals(List.of(6, 7, 8, 9), r.getProvenance().getMissingRequestIndices());
        assertEquals(6, r.getCompleted());
    }

    @Test
    void stoppedRunIsCompleteWhenEverySentRequestIsIn() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-stop", 10));
        RunEvent fin = TestRuns.finished("run-stop", 6);
        ((io.capstream.schemas.avro.RunFinished) fin.getPayload()).setStopped(io.capstream.schemas.avro.RunStop
                .newBuilder().setRule("max_error_rate").setAtMs(812.5).setDetail("6 of the last 6 requests failed")
                .setRequestsEnded(6).build());
        sendAll(run.subList(0, 1 + 6));
        send(fin);
        BenchmarkReport r = single();
        assertThat(r.getProvenance().getComplete()).as("published at once, and the 4 never sent are not missing: %s",
                r.getProvenance()).isTrue();
        assertThat(r.getProvenance().getMissingRequestIndices()).isEmpty();
        assertThat(r.getRequests()).isEqualTo(6);
        assertThat(r.getStopped().getRule()).isEqualTo("max_error_rate");
        assertThat(r.getStopped().getAtMs()).isEqualTo(812.5);
        assertThat(r.getStopped().getRequestsNotSent()).isEqualTo(4);
    }

    @Test
    void distributedRunStoppedByOneWorkerReportsItsRuleAndIsComplete() {
        // 12 planned over 3 workers (index i from w<i % 3>); w0 tripped a rule after 0, 3; its coordinator stopped
        // w1 after 1, 4, 7 and w2 after 2, 5: 7 sent, 5 never sent
        List<RunEvent> all = TestRuns.distributed("run-dstop", 12, 3);
        List<Integer> sentIdx = List.of(0, 3, 1, 4, 7, 2, 5);
        sendAll(List.of(all.get(0)));
        for (int i : sentIdx) {
            send(all.get(1 + i));
        }
        String[] rules = {"max_error_rate", "coordinator", "coordinator"};
        double[] at = {700, 650, 720};
        int[] sent = {2, 3, 2};
        for (int k = 0; k < 3; k++) {
            RunEvent f = TestRuns.workerFinished("run-dstop", k, 3, sent[k]);
            ((io.capstream.schemas.avro.RunFinished) f.getPayload()).setStopped(io.capstream.schemas.avro.RunStop
                    .newBuilder().setRule(rules[k]).setAtMs(at[k]).setDetail("d" + k).setRequestsEnded(sent[k]).build());
            send(f);
        }
        BenchmarkReport r = single();
        assertThat(r.getProvenance().getComplete()).as("%s", r.getProvenance()).isTrue();
        assertThat(r.getProvenance().getMissingRequestIndices()).isEmpty();
        assertThat(r.getRequests()).isEqualTo(7);
        assertThat(r.getStopped().getRule()).as("the tripping worker's rule, not its coordinator's stops")
                .isEqualTo("max_error_rate");
        assertThat(r.getStopped().getDetail()).isEqualTo("d0");
        assertThat(r.getStopped().getRequestsNotSent()).isEqualTo(5);
        assertThat(r.getStopped().getWorkersStopped()).isEqualTo(3);
    }

    @Test
    void timeBoundedClosedLoopThatRanToItsDurationIsComplete() {
        // --duration: 10 planned, 6 started before the bound; the 4 it had no time for are not missing
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-timed", 10));
        ((io.capstream.schemas.avro.RunStarted) run.get(0).getPayload()).setDurationS(3.0);
        sendAll(run.subList(0, 1 + 6));
        send(TestRuns.finished("run-timed", 6));
        BenchmarkReport r = single();
        assertTrue(r.getProvenance().getComplete(), r.getProvenance().toString());
        assertEquals(List.of(), r.getProvenance().getMissingRequestIndices());
        assertEquals(6, r.getRequests());
        assertEquals(6, r.getCompleted());
    }

    @Test
    void timeBoundedRunMissingASentRequestIsIncompleteAfterTheDeadline() {
        List<RunEvent> run = new ArrayList<>(TestRuns.run("run-timed-gap", 10));
        ((io.capstream.schemas.avro.RunStarted) run.get(0).getPayload()).setDurationS(3.0);
        run.remove(1 + 2); // request 2 was sent but its event never arrives
        sendAll(run.subList(0, 1 + 5));
        send(TestRuns.finished("run-timed-gap", 6));
        assertTrue(reports.isEmpty(), "5 of the 6 sent requests are in");
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));
        BenchmarkReport r = single();
        assertFalse(r.getProvenance().getComplete());
        assertEquals(List.of(2), r.getProvenance().getMissingRequestIndices());
    }

    @Test
    void aSecondRunStartedWhileTheRunIsOpenIsADuplicateAndAWarningNamingTheRunIdCollision() {
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                RunCollector.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen =
                new ch.qos.logback.core.read.ListAppender<>();
        seen.start();
        log.setLevel(ch.qos.logback.classic.Level.WARN);
        log.addAppender(seen);
        try {
            List<RunEvent> first = TestRuns.run("benchmark-20261206T120000Z", 10);
            List<RunEvent> second = new ArrayList<>(TestRuns.run("benchmark-20261206T120000Z", 10));
            second.get(0).setEventId("another-generator-start");
            second.get(0).setWorkerId("worker-b");
            send(first.get(0));
            send(second.get(0)); // two generators started in the same second: one derived run id
            send(first.get(0)); // a redelivery of the first RunStarted: a duplicate, but no collision
            sendAll(first.subList(1, first.size()));
        } finally {
            log.detachAppender(seen);
            log.setLevel(null);
        }
        BenchmarkReport r = single();
        assertThat(r.getProvenance().getDuplicateEvents()).as("both later RunStarted events are ignored").isEqualTo(2);
        List<String> warnings = seen.list.stream()
                .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings).as("WARN lines of the collector").hasSize(1);
        assertThat(warnings.get(0)).as("the collision warning")
                .contains("run benchmark-20261206T120000Z: a second RunStarted (event another-generator-start,"
                        + " worker worker-b)", "two runs share this run id", "--run-id-suffix");
    }

    @Test
    void sameRunIdWithANewRunStartedIsANewRun() {
        sendAll(TestRuns.run("run-again", 10));
        assertSyntheticMetrics(single(), 10);
        List<RunEvent> again = new ArrayList<>(TestRuns.run("run-again", 10));
        again.get(0).setEventId("second-start");
        sendAll(again);
        BenchmarkReport r = single();
        assertSyntheticMetrics(r, 10);
        assertEquals(0, r.getProvenance().getDuplicateEvents());
        assertNull(r.getProvenance().getReplayOf());
    }

    @Test
    void aOneProcessRunListsItsOneWorker() throws Exception {
        sendAll(TestRuns.run("run-one-worker", 10));
        BenchmarkReport r = single();
        assertEquals(List.of("w0"), new ArrayList<>(r.getWorkers().keySet()));
        WorkerSummary w = r.getWorkers().get("w0");
        assertEquals(10, w.getRequests());
        assertEquals(10, w.getCompleted());
        assertTrue(w.getRunFinished());
        assertEquals(10, w.getRequestsSent());
        assertNull(w.getShare());
        assertNull(w.getShares());
        assertNull(r.getClockOffsetSpreadMs());
        JsonNode c = ArtifactJson.parse(r.getArtifactJson()).get("capstream");
        assertEquals(1, c.get("workers").size());
        assertFalse(c.has("clock_offset_spread_ms"), "no spread with one worker");
    }

    @Test
    void threeWorkersGiveOneReportWithThreeEntriesWhoseCountsSumToRequests() throws Exception {
        List<RunEvent> run = new ArrayList<>(TestRuns.distributed("run-3w", 30, 3));
        Collections.shuffle(run, new Random(7));
        RunEvent lastFinished = null;
        for (RunEvent e : run) {
            if (e.getPayload() instanceof RunFinished) {
                lastFinished = e;
            }
        }
        for (RunEvent e : run) {
            if (e != lastFinished) {
                send(e);
            }
        }
        assertTrue(reports.isEmpty(), "two of the three RunFinished are in");
        send(lastFinished);

        BenchmarkReport r = single();
        assertSyntheticMetrics(r, 30);
        assertTrue(r.getProvenance().getComplete());
        Map<String, WorkerSummary> workers = r.getWorkers();
        assertEquals(List.of("w0", "w1", "w2"), new ArrayList<>(workers.keySet()), "the coordinator sent no request");
        assertEquals(r.getRequests(), workers.values().stream().mapToInt(WorkerSummary::getRequests).sum());
        for (int k = 0; k < 3; k++) {
            WorkerSummary w = workers.get("w" + k);
            assertEquals(10, w.getRequests());
            assertEquals(10, w.getCompleted());
            assertEquals(0, w.getFailed());
            assertTrue(w.getRunFinished());
            assertEquals(10, w.getRequestsSent());
            assertEquals(k, w.getShare());
            assertEquals(3, w.getShares());
            assertEquals(k * 0.75 - 0.5, w.getClockOffsetMs(), EPS);
            assertEquals(0.25, w.getClockOffsetUncertaintyMs(), EPS);
        }
        assertEquals(1.5, r.getClockOffsetSpreadMs(), EPS);
        JsonNode c = ArtifactJson.parse(r.getArtifactJson()).get("capstream");
        assertEquals(3, c.get("workers").size());
        assertEquals(10, c.get("workers").get("w2").get("requests").intValue());
        assertEquals(1.5, c.get("clock_offset_spread_ms").doubleValue(), EPS);
        assertEquals(0, storedEvents());
    }

    /**
     * A worker that ran two of the three shares (a worker that saw a new plan topic before the others took
     * every partition; CI: 'no report within 123 s'): its two RunFinished events are both needed, not a
     * duplicate, and the report is complete as soon as the third arrives.
     */
    @Test
    void aWorkerThatRanTwoSharesSendsTwoRunFinishedThatBothCount() throws Exception {
        List<RunEvent> run = new ArrayList<>(TestRuns.distributed("run-2of3", 30, 3));
        for (RunEvent e : run) {
            if ("w1".equals(e.getWorkerId())) {
                e.setWorkerId("w0"); // w0 ran shares 0 and 1
            }
        }
        RunEvent last = run.remove(run.size() - 1);
        sendAll(run);
        assertTrue(reports.isEmpty(), "two of the three shares' RunFinished are in");
        send(last);
        BenchmarkReport r = single();
        assertTrue(r.getProvenance().getComplete());
        assertEquals(0, r.getProvenance().getDuplicateEvents());
        assertEquals(List.of("w0", "w2"), new ArrayList<>(r.getWorkers().keySet()));
        assertEquals(20, r.getWorkers().get("w0").getRequests());
        assertEquals(10, r.getWorkers().get("w2").getRequests());
    }

    @Test
    void aKilledWorkerIsListedUnfinishedInTheIncompleteReport() {
        // w2 is killed after 2 of its 10 requests (indices 2 and 5): no RunFinished, 8 indices missing
        List<RunEvent> run = TestRuns.distributed("run-killed", 30, 3);
        List<Integer> missing = new ArrayList<>();
        int w2Sent = 0;
        for (RunEvent e : run) {
            if ("w2".equals(e.getWorkerId())) {
                if (e.getPayload() instanceof RunFinished || w2Sent == 2) {
                    if (!(e.getPayload() instanceof RunFinished)) {
                        missing.add(((io.capstream.schemas.avro.RequestCompleted) e.getPayload()).getRequestIndex());
                    }
                    continue;
                }
                w2Sent++;
            }
            send(e);
        }
        assertTrue(reports.isEmpty());
        driver.advanceWallClockTime(DEADLINE.plusSeconds(1));
        BenchmarkReport r = single();
        assertFalse(r.getProvenance().getComplete());
        assertFalse(r.getProvenance().getRunFinishedSeen());
        assertEquals(missing, r.getProvenance().getMissingRequestIndices());
        WorkerSummary dead = r.getWorkers().get("w2");
        assertFalse(dead.getRunFinished());
        assertEquals(2, dead.getRequests());
        assertNull(dead.getRequestsSent());
        assertNull(dead.getShare());
        assertNull(dead.getClockOffsetMs());
        assertTrue(r.getWorkers().get("w0").getRunFinished());
        assertEquals(22, r.getWorkers().values().stream().mapToInt(WorkerSummary::getRequests).sum());
        assertEquals(0.75, r.getClockOffsetSpreadMs(), EPS, "the offsets of w0 and w1");
    }

    @Test
    void aReplayOfADistributedRunGivesTheSameWorkersAndAnImportHasNone() {
        sendAll(TestRuns.distributed("run-orig", 12, 3));
        BenchmarkReport original = single();
        List<RunEvent> replay = new ArrayList<>();
        for (RunEvent e : TestRuns.distributed("run-orig", 12, 3)) {
            RunEvent copy = RunEvent.newBuilder(e).setRunId("run-orig-replay").setEventId("replay-" + e.getEventId())
                    .build();
            if (copy.getPayload() instanceof io.capstream.schemas.avro.RunStarted s) {
                s.setOrigin(Origins.replayOf("run-orig"));
            }
            replay.add(copy);
        }
        Collections.reverse(replay);
        sendAll(replay);
        BenchmarkReport r = single();
        assertEquals(ReportKind.REPLAY, r.getProvenance().getKind());
        assertEquals(original.getWorkers(), r.getWorkers());
        assertEquals(original.getClockOffsetSpreadMs(), r.getClockOffsetSpreadMs());

        List<RunEvent> imported = new ArrayList<>(TestRuns.run("run-imported", 5));
        imported.set(0, TestRuns.started("run-imported", 5, Origins.IMPORT));
        sendAll(imported);
        BenchmarkReport i = single();
        assertEquals(ReportKind.IMPORTED, i.getProvenance().getKind());
        assertNull(i.getWorkers());
        assertNull(i.getClockOffsetSpreadMs());
    }
}

package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.report.state.RunEventBatchSerde;
import io.capstream.aggregator.report.state.RunEventBinarySerde;
import io.capstream.aggregator.report.state.StateKeys;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: the events store is written behind ({@link EventsStore}): one batch record per run and commit, none
 * for a run published within a commit interval, one tombstone per batch when the run is published; a run restored
 * from batches, from the per-event records earlier versions wrote, or from both, gives the report an uninterrupted
 * run gives.
 */
class EventsStoreTest extends RunCollectorFixture {
    private static final String APP = "events-store-test";

    @TempDir
    Path stateDir;

    EventsStoreTest() {
        super("mock://events-store-test");
    }

    @Test
    void aRunPublishedWithinOneCommitIntervalWritesNothingToTheEventsStore() {
        RunCollector c = newInstance();
        feed(c, TestRuns.run("quick", 40));
        assertThat(reports()).as("reports of the run").hasSize(1);
        commit();
        assertThat(eventRecordsWritten.get()).as("event records written for a run published before the commit")
                .isZero();
        assertThat(eventTombstones()).as("tombstones written for it").isZero();
        assertThat(events.unwritten()).as("runs left buffered after the commit").isZero();
    }

    @Test
    void aRunSpanningSeveralCommitsWritesOneRecordPerCommitNotPerEvent() {
        RunCollector c = newInstance();
        List<RunEvent> run = TestRuns.run("long", 58); // 60 events
        feed(c, run.subList(0, 20));
        commit();
        feed(c, run.subList(20, 40));
        commit();
        commit(); // nothing new: nothing written
        assertThat(eventRecordsWritten.get()).as("records written for 40 events in 2 commits").isEqualTo(2);
        assertThat(keys()).as("the run's records").containsExactly(StateKeys.batch("long", 0),
                StateKeys.batch("long", 1));
        feed(c, run.subList(40, run.size()));
        assertThat(reports()).as("reports of the run").hasSize(1);
        commit();
        assertThat(eventRecordsWritten.get()).as("records written in all").isEqualTo(2);
        assertThat(eventTombstones()).as("tombstones written when the run was published").isEqualTo(2);
        assertThat(keys()).as("records left").isEmpty();
    }

    @Test
    void aRunRestoredFromBatchesGivesTheSameReportAsAnUninterruptedOne() {
        List<RunEvent> run = withScrapes(TestRuns.distributed("batched", 30, 3));
        RunCollector first = newInstance();
        feed(first, run.subList(0, 12));
        commit();
        feed(first, run.subList(12, 20));
        feed(first, List.of(run.get(5))); // a duplicate
        commit();
        feed(first, run.subList(20, 25)); // never committed: read again after the restart
        RunCollector second = restart();
        feed(second, run.subList(20, 28));
        commit();
        assertThat(keys()).as("batch numbering goes on after the highest one restored").containsExactly(
                StateKeys.batch("batched", 0), StateKeys.batch("batched", 1), StateKeys.batch("batched", 2));
        RunCollector third = restart();
        feed(third, List.of(run.get(21))); // a duplicate of a restored event
        feed(third, run.subList(28, run.size()));
        BenchmarkReport restored = only(reports());
        assertThat(keys()).as("records left after publishing").isEmpty();
        assertThat(restored.getProvenance().getDuplicateEvents()).as("duplicates counted").isEqualTo(2);

        assertThat(restored).as("report of the restored run").isEqualTo(uninterrupted(run, List.of(5, 21)));
    }

    @Test
    void aRunRestoredFromEarlierVersionsPerEventRecordsGivesTheSameReportAsAnUninterruptedOne() {
        List<RunEvent> run = withScrapes(TestRuns.distributed("legacy", 30, 3));
        RunCollector first = newInstance();
        feed(first, run.subList(0, 16));
        feed(first, List.of(run.get(run.size() - 1))); // w2's RunFinished first
        feed(first, List.of(run.get(4))); // a duplicate
        commit();
        int perEvent = asEarlierVersionsWroteIt("legacy");
        int tombstonesBefore = eventTombstones();
        assertThat(perEvent).as("per-event records as the version before wrote them").isEqualTo(17);
        RunCollector second = restart();
        feed(second, run.subList(16, 24));
        commit();
        assertThat(keys()).as("records after a commit over the earlier version's").hasSize(perEvent + 1)
                .contains(StateKeys.batch("legacy", 0), StateKeys.started("legacy"));
        RunCollector third = restart(); // both layouts in the store
        feed(third, run.subList(24, run.size() - 1));
        BenchmarkReport restored = only(reports());
        assertThat(keys()).as("records left after publishing").isEmpty();
        assertThat(eventTombstones() - tombstonesBefore).as("tombstones: every per-event record and the batch")
                .isEqualTo(perEvent + 1);

        assertThat(restored).as("report of the run restored from per-event records").isEqualTo(
                uninterrupted(run, List.of(4)));
    }

    @Test
    void aRestoredRunPastTheDeadlineIsPublishedFromItsBatches() {
        List<RunEvent> run = TestRuns.run("stalled", 5);
        feed(newInstance(), run.subList(0, 4)); // RunStarted and requests 0..2
        commit();
        restart();
        context.setCurrentSystemTimeMs(1_000L + config.incompleteDeadline().toMillis() + 1);
        context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1).getPunctuator()
                .punctuate(context.currentSystemTimeMs());
        BenchmarkReport r = only(reports());
        assertThat(r.getProvenance().getMissingRequestIndices()).as("missing indices").containsExactly(3, 4);
        assertThat(r.getCompleted()).as("completed requests restored").isEqualTo(3);
        assertThat(keys()).as("records left after publishing").isEmpty();
    }

    @Test
    void aBatchPastTheSizeLimitIsSplitAndRestoredWhole() {
        List<RunEvent> run = TestRuns.run("big", 6000);
        RunEventBatchSerde serde = new RunEventBatchSerde();
        long bytes = run.subList(0, 6001).stream().mapToLong(e -> serde.encodeEvent(e).length + 4L).sum();
        feed(newInstance(), run.subList(0, 6001));
        commit();
        long expected = (bytes + EventsStore.MAX_BATCH_BYTES - 1) / EventsStore.MAX_BATCH_BYTES;
        assertThat(eventRecordsWritten.get()).as("records for %d bytes of events in one commit", bytes)
                .isGreaterThanOrEqualTo((int) expected).isGreaterThan(1);
        try (KeyValueIterator<String, byte[]> it = events.all()) {
            it.forEachRemaining(kv -> assertThat(kv.value.length).as("bytes of record %s", kv.key)
                    .isLessThanOrEqualTo(EventsStore.MAX_BATCH_BYTES + 1));
        }
        feed(restart(), run.subList(6001, run.size()));
        BenchmarkReport restored = only(reports());
        assertThat(restored).as("report of the run restored from split batches").isEqualTo(uninterrupted(run, List.of()));
    }

    @Test
    void theEventsChangelogGetsOneBatchRecordPerCommit() {
        String registry = "mock://events-store-changelog";
        StreamsSettings settings = StreamsSettings.defaults(APP, "127.0.0.1:9", stateDir);
        try (TopologyTestDriver driver = new TopologyTestDriver(
                ReportTopology.build(ReportTopologyConfig.defaults(registry)), settings.toProperties())) {
            TestInputTopic<String, byte[]> in = driver.createInputTopic(Topics.EVENTS, new StringSerializer(),
                    new ByteArraySerializer());
            TestOutputTopic<String, byte[]> log = driver.createOutputTopic(
                    APP + "-" + ReportTopology.EVENTS_STORE + "-changelog", new StringDeserializer(),
                    new ByteArrayDeserializer());
            var serializer = SpecificAvroSerde.forValue(RunEvent.class, registry).serializer();
            RunEventBatchSerde batches = new RunEventBatchSerde();
            List<RunEvent> run = TestRuns.run("logged", 10); // 12 events; TopologyTestDriver commits after each
            for (int i = 0; i < run.size(); i++) {
                in.pipeInput(run.get(i).getRunId(), serializer.serialize(Topics.EVENTS, run.get(i)));
                List<TestRecord<String, byte[]>> records = log.readRecordsToList();
                if (i < run.size() - 1) {
                    assertThat(records).as("changelog records of commit %d", i).hasSize(1);
                    assertThat(records.get(0).key()).as("key of commit %d's record", i)
                            .isEqualTo(StateKeys.batch("logged", i));
                    assertThat(batches.deserializer().deserialize("t", records.get(0).value()))
                            .as("events in commit %d's record", i).containsExactly(run.get(i));
                } else {
                    assertThat(records).as("changelog records of the commit that published the run")
                            .extracting(TestRecord::key, TestRecord::value)
                            .hasSize(run.size() - 1)
                            .allSatisfy(t -> assertThat(t.toList().get(1)).as("a tombstone").isNull());
                }
            }
        }
    }

    /** @return the run's report from fresh stores, every event in order, the given events sent twice */
    private BenchmarkReport uninterrupted(List<RunEvent> run, List<Integer> duplicated) {
        setUpStores();
        RunCollector c = newInstance();
        List<RunEvent> all = new ArrayList<>(run);
        for (int i : duplicated) {
            all.add(all.size() - 1, run.get(i));
        }
        feed(c, all);
        return only(reports());
    }

    private static BenchmarkReport only(List<BenchmarkReport> reports) {
        assertThat(reports).as("reports published").hasSize(1);
        return reports.get(0);
    }

    /** @return the events store's keys, in order */
    private List<String> keys() {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = events.all()) {
            it.forEachRemaining(kv -> out.add(kv.key));
        }
        return out;
    }

    /**
     * Rewrites the run's batches as the version before issue 31's batches wrote its events: one record per event,
     * value its {@link RunEventBinarySerde} bytes, under {@code |S}, {@code |R|<index>}, {@code |F|<finisher>} and
     * {@code |H|<sequence>}.
     *
     * @return the number of per-event records
     */
    private int asEarlierVersionsWroteIt(String runId) {
        RunEventBatchSerde batches = new RunEventBatchSerde();
        RunEventBinarySerde single = new RunEventBinarySerde();
        List<KeyValue<String, byte[]>> records = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = events.prefixScan(StateKeys.batchPrefix(runId),
                new StringSerializer())) {
            it.forEachRemaining(records::add);
        }
        int scrapes = 0;
        int n = 0;
        for (KeyValue<String, byte[]> kv : records) {
            events.delete(kv.key);
            for (RunEvent e : batches.deserializer().deserialize("t", kv.value)) {
                Object p = e.getPayload();
                String key = p instanceof RunStarted ? StateKeys.started(runId)
                        : p instanceof RequestCompleted || p instanceof RequestFailed
                                ? StateKeys.request(runId, OpenRun.requestIndex(e))
                        : p instanceof RunFinished ? StateKeys.finished(runId, OpenRun.finisher(e))
                        : StateKeys.scrape(runId, scrapes++);
                events.put(key, single.serializer().serialize("t", e));
                n++;
            }
        }
        return n;
    }

    /** @return the run with a scrape of the endpoint's metrics after every tenth event (Heartbeats with samples) */
    private static List<RunEvent> withScrapes(List<RunEvent> run) {
        List<RunEvent> out = new ArrayList<>();
        for (int i = 0; i < run.size(); i++) {
            out.add(run.get(i));
            if (i % 10 == 1) {
                String runId = run.get(i).getRunId();
                RunEvent e = TestRuns.envelope(runId, runId + "-scrape-" + i, new Heartbeat(
                        "http://127.0.0.1:8000/v1", "test-model", Map.of("requests_running", (double) i), i * 100.0));
                e.setEmittedAtMs(1_785_585_600_000L + i * 100L);
                out.add(e);
            }
        }
        return out;
    }
}

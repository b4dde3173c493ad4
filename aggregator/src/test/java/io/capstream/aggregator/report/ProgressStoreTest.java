package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.aggregator.report.state.RunProgressSerde;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a run's progress ({@link RunProgress}, whose bit set of received indices grows with the run) is encoded
 * and written to its store and changelog once per commit ({@link ProgressStore}), not once per event; and what each
 * commit leaves in the changelog is the progress of every event consumed so far (what a restore needs).
 */
class ProgressStoreTest extends RunCollectorFixture {
    private static final String APP = "progress-store-test";

    @TempDir
    Path stateDir;

    ProgressStoreTest() {
        super("mock://progress-store-test");
    }

    @Test
    void aRunsProgressIsEncodedOncePerCommitNotOncePerEvent() {
        AtomicInteger encoded = new AtomicInteger();
        RunProgressSerde plain = new RunProgressSerde();
        Serde<RunProgress> counting = Serdes.serdeFrom((topic, p) -> {
            encoded.incrementAndGet();
            return plain.serializer().serialize(topic, p);
        }, plain.deserializer());
        MockProcessorContext<String, ReportOutput> ctx = new MockProcessorContext<>();
        ctx.setCurrentSystemTimeMs(1_000L);
        ProgressStore store = ProgressStore.over(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(ReportTopology.PROGRESS_STORE), Serdes.String(), counting))
                .withLoggingDisabled().build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);
        ctx.addStateStore(events);
        RunCollector c = new RunCollector(config);
        c.init(ctx);

        List<RunEvent> run = TestRuns.run("once", 200);
        for (RunEvent e : run.subList(0, 101)) { // RunStarted and requests 0..99, within one commit interval
            c.process(new Record<>(e.getRunId(), e, 0L));
        }
        assertThat(encoded.get()).as("progress encodings for 101 events before a commit").isZero();
        assertThat(store.get("once").received()).as("received indices read back before the commit").isEqualTo(100);

        store.flushCache(); // what Kafka Streams calls before it commits
        assertThat(encoded.get()).as("progress encodings after the commit").isEqualTo(1);
        assertThat(store.unwritten()).as("progress values left unwritten after the commit").isZero();
        RunProgress written = plain.deserializer().deserialize("t",
                plain.serializer().serialize("t", store.get("once")));
        assertThat(written.received()).as("received indices in the written progress").isEqualTo(100);
    }

    @Test
    void theChangelogAfterEachCommitHoldsTheProgressOfEveryEventConsumed() {
        String registry = "mock://progress-store-changelog";
        StreamsSettings settings = StreamsSettings.defaults(APP, "127.0.0.1:9", stateDir);
        try (TopologyTestDriver driver = new TopologyTestDriver(
                ReportTopology.build(ReportTopologyConfig.defaults(registry)), settings.toProperties())) {
            TestInputTopic<String, byte[]> in = driver.createInputTopic(Topics.EVENTS, new StringSerializer(),
                    new ByteArraySerializer());
            TestOutputTopic<String, byte[]> log = driver.createOutputTopic(
                    APP + "-" + ReportTopology.PROGRESS_STORE + "-changelog", new StringDeserializer(),
                    new ByteArrayDeserializer());
            var serializer = SpecificAvroSerde.forValue(RunEvent.class, registry).serializer();
            RunProgressSerde serde = new RunProgressSerde();
            List<RunEvent> run = TestRuns.run("logged", 30);
            byte[] latest = null;
            for (int i = 0; i < 31; i++) { // RunStarted, requests 0..29; TopologyTestDriver commits after each
                RunEvent e = run.get(i);
                in.pipeInput(e.getRunId(), serializer.serialize(Topics.EVENTS, e));
                for (var r : log.readRecordsToList()) {
                    latest = r.value();
                }
                assertThat(latest).as("the run's progress in the changelog after event %d", i).isNotNull();
                RunProgress p = serde.deserializer().deserialize("t", latest);
                assertThat(p.started()).as("RunStarted in the changelog's progress after event %d", i).isTrue();
                assertThat(p.received()).as("received indices in the changelog's progress after event %d", i)
                        .isEqualTo(i);
            }
            var reports = driver.createOutputTopic(Topics.REPORTS, new StringDeserializer(),
                    SpecificAvroSerde.forValue(BenchmarkReport.class, registry).deserializer());
            run.subList(31, run.size()).forEach(e -> in.pipeInput(e.getRunId(), serializer.serialize(Topics.EVENTS, e)));
            assertThat(reports.readValuesToList()).as("reports once the run is complete").hasSize(1);
        }
    }
}

package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.failed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window step's aggregates kept decoded between commits ({@link WindowAggregateStore}): what a commit leaves in
 * the changelog is every request consumed so far, and a window step restored from that changelog on an empty state
 * directory (as after kill -9 of the process on another machine) gives the same summaries as one that never stopped.
 * TopologyTestDriver commits after every record, as Kafka Streams does at every commit interval: the changelog is
 * read between two records, without closing the first driver (closing would flush too, and hide a missing flush).
 */
class WindowAggregateStoreTest {
    private static final String REGISTRY = "mock://window-aggregate-store-test";
    private static final String APP = "window-store-test";
    private static final String CHANGELOG = APP + "-" + WindowTopology.AGGREGATES_STORE + "-changelog";
    private static final long T0 = 1_767_225_600_000L;

    @TempDir
    Path stateDirs;
    private final List<TopologyTestDriver> drivers = new ArrayList<>();

    @AfterEach
    void closeDrivers() {
        drivers.forEach(TopologyTestDriver::close);
    }

    /** Requests over 6 windows of 10 s, two targets, with failures; heartbeats close the windows as time passes. */
    private static List<RunEvent> events() {
        List<RunEvent> events = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            long t = T0 + i * 100L;
            RunEvent e = i % 7 == 3 ? failed("run-" + (i % 2), i, t, "URLError")
                    : completed("run-" + (i % 2), i, t, 50 + (i * 37) % 400, 900 + (i * 53) % 700, 10 + i % 50);
            events.add(e);
            if (i % 50 == 49) {
                events.add(heartbeat(t));
            }
        }
        events.add(heartbeat(T0 + 600 * 100L + 30_000)); // closes every window
        return events;
    }

    @Test
    void theChangelogAfterEachCommitHoldsEveryRequestConsumedSoFar() throws IOException {
        Driver d = new Driver();
        List<RunEvent> all = events();
        List<RunEvent> first = all.subList(0, 40); // all in the first window (still open)
        first.forEach(d::send);
        Map<String, byte[]> changelog = d.latestChangelog();
        String key = TumblingWindowProcessor.storeKey(T0, WindowTestEvents.TARGET + "|" + WindowTestEvents.MODEL
                + "|le4096");
        assertThat(changelog).as("changelog keys after 40 requests of the open window").containsKey(key);
        WindowAggregate fromChangelog = WindowAggregate.fromBytes(changelog.get(key));
        long failures = first.stream().filter(e -> e.getPayload() instanceof io.capstream.schemas.avro.RequestFailed)
                .count();
        assertThat(fromChangelog.completed()).as("completed requests in the changelog's aggregate")
                .isEqualTo(40 - failures);
        assertThat(fromChangelog.failed()).as("failed requests in the changelog's aggregate").isEqualTo(failures);
        assertThat(fromChangelog.sketch(Quantity.E2E).getCount()).as("E2E values in the changelog's sketch")
                .isEqualTo(40.0 - failures);
        assertThat(d.store().unwritten()).as("aggregates changed but not written after a commit").isZero();
        // round trip of the state form: what was written decodes to the aggregate kept in memory
        assertThat(fromChangelog.toBytes()).as("re-encoded changelog aggregate")
                .isEqualTo(d.store().get(key).toBytes());
    }

    @Test
    void aWindowStepRestoredFromTheChangelogMidStreamGivesTheSameSummaries() throws IOException {
        List<RunEvent> all = events();
        Driver reference = new Driver();
        all.forEach(reference::send);
        Map<String, WindowSummary> expected = reference.summaries();
        assertThat(expected).as("summaries of the uninterrupted run").hasSize(6);

        for (int cut : new int[] {37, 260, 455}) { // inside a window, and just after windows closed
            Driver before = new Driver();
            all.subList(0, cut).forEach(before::send);
            Map<String, WindowSummary> got = new TreeMap<>(before.summaries());
            Map<String, byte[]> changelog = before.latestChangelog();
            // the process dies here (before is never closed); a new one restores the changelog on an empty disk
            Driver after = new Driver();
            KeyValueStore<String, byte[]> restored = after.store().bytes();
            changelog.forEach((k, v) -> {
                if (v == null) {
                    restored.delete(k);
                } else {
                    restored.put(k, v);
                }
            });
            after.restart();
            all.subList(cut, all.size()).forEach(after::send);
            got.putAll(after.summaries());
            assertThat(got).as("summaries with the window step restored after event %d", cut)
                    .isEqualTo(new TreeMap<>(expected));
        }
    }

    /** One TopologyTestDriver running the window topology on its own state directory. */
    private final class Driver {
        private final StreamsBuilder builder = new StreamsBuilder();
        private final SpecificAvroSerde<RunEvent> eventSerde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        private final Properties props = new Properties();
        private TopologyTestDriver driver;
        private org.apache.kafka.streams.TestInputTopic<String, RunEvent> in;
        private org.apache.kafka.streams.TestOutputTopic<String, WindowSummary> out;
        private org.apache.kafka.streams.TestOutputTopic<String, byte[]> log;

        Driver() throws IOException {
            WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), eventSerde)), builder,
                    WindowTopologyConfig.defaults(REGISTRY).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2)));
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory(stateDirs, "state").toString());
            open();
        }

        private void open() {
            driver = new TopologyTestDriver(builder.build(), props);
            drivers.add(driver);
            in = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(), eventSerde.serializer());
            out = driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());
            log = driver.createOutputTopic(CHANGELOG, Serdes.String().deserializer(), Serdes.ByteArray().deserializer());
        }

        /**
         * Commits (a record with no value, which the window step ignores), copies the state directory (TopologyTestDriver
         * deletes its own on close) and starts a driver on the copy: its processors read the state written so far.
         */
        void restart() throws IOException {
            in.pipeInput("none", null, 0L);
            store().close(); // RocksDB writes its files
            drivers.remove(driver); // left unclosed: closing it would fail on the closed store
            Path copy = Files.createTempDirectory(stateDirs, "copy");
            Path from = Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG));
            try (var files = Files.walk(from)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (!f.getFileName().toString().endsWith(".lock")) {
                        Files.copy(f, copy.resolve(from.relativize(f).toString()),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            props.put(StreamsConfig.STATE_DIR_CONFIG, copy.toString());
            open();
        }

        void send(RunEvent e) {
            in.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
        }

        WindowAggregateStore store() {
            return (WindowAggregateStore) driver.getStateStore(WindowTopology.AGGREGATES_STORE);
        }

        /** @return the summaries emitted since the last call, latest per key */
        Map<String, WindowSummary> summaries() {
            Map<String, WindowSummary> latest = new LinkedHashMap<>();
            out.readKeyValuesToList().forEach(kv -> latest.put(kv.key, kv.value));
            return latest;
        }

        /** @return the aggregates changelog compacted: latest value per key (null = deleted) */
        Map<String, byte[]> latestChangelog() {
            Map<String, byte[]> latest = new LinkedHashMap<>();
            for (TestRecord<String, byte[]> r : log.readRecordsToList()) {
                latest.put(r.key(), r.value());
            }
            return latest;
        }
    }
}

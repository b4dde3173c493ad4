package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When windows close with several input partitions: the driver's one events partition is input partition 0 (its
 * re-keying task runs for real, with its wall-clock progress reports); input partition 1 is modelled by piping
 * its progress into the repartition topic.
 */
class InputProgressTest {
    private static final String REGISTRY = "mock://input-progress-test";
    private static final String APP = "input-progress-test";
    private static final long T0 = 1_767_225_600_000L;

    private TopologyTestDriver driver;
    private TestInputTopic<String, RunEvent> events;
    private TestInputTopic<String, RunEvent> repartition;
    private TestOutputTopic<String, WindowSummary> summaries;

    private void start(int inputPartitions) {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), serde)), builder,
                WindowTopologyConfig.defaults(REGISTRY).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2))
                        .withInput(inputPartitions, Duration.ofSeconds(5)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(builder.build(), props, Instant.ofEpochMilli(T0));
        events = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(), serde.serializer());
        repartition = driver.createInputTopic(APP + "-" + WindowTopology.REPARTITION_NAME + "-repartition",
                Serdes.String().serializer(), serde.serializer());
        summaries = driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void send(RunEvent e) {
        events.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
    }

    /** Input partition 1 reports that it has read up to {@code eventTime}, or that it is idle. */
    private void partitionOne(long eventTime, boolean idle) {
        org.apache.kafka.common.header.Headers h = new SourceProgress(1, eventTime, idle).addTo(new RecordHeaders());
        repartition.pipeInput(new TestRecord<>(RekeyProcessor.PROGRESS_KEY, null, h, Math.max(0, eventTime)));
    }

    @Test
    void aWindowClosesOnlyWhenEveryInputPartitionHasPassedIt() {
        start(2);
        send(completed("run-a", 0, T0 + 1000, 100, 200, 5));
        send(completed("run-a", 1, T0 + 30_000, 100, 200, 5));
        assertTrue(summaries.isEmpty(), "partition 1 has not reported yet");
        partitionOne(T0 + 5000, false);
        assertTrue(summaries.isEmpty(), "partition 1 is at T0+5s, before window 1's end + grace");
        partitionOne(T0 + 12_000, false);
        List<WindowSummary> closed = summaries.readValuesToList();
        assertEquals(1, closed.size(), "window 1 closes when partition 1 passes T0+12s: " + closed);
        assertEquals(T0, closed.get(0).getWindowStartMs());
    }

    @Test
    void anIdlePartitionHoldsNoWindowAndWhenAllAreIdleTheLatestEventTimeClosesThem() {
        start(2);
        partitionOne(T0 + 40_000, false);
        send(completed("run-a", 0, T0 + 1000, 100, 200, 5));
        send(completed("run-a", 1, T0 + 25_000, 100, 200, 5));
        assertEquals(List.of(T0), starts(), "partition 0 is at T0+25s: window 1 closes, window 3 waits");
        driver.advanceWallClockTime(Duration.ofSeconds(1)); // the re-keying task notes it had records
        driver.advanceWallClockTime(Duration.ofSeconds(4));
        assertEquals(List.of(), starts(), "partition 0 had no record for 4 s only: not idle yet");
        driver.advanceWallClockTime(Duration.ofSeconds(1)); // 5 s without a record: partition 0 is idle
        assertEquals(List.of(T0 + 20_000), starts(), "only partition 1 (T0+40s) counts: window 3 closes");

        send(completed("run-a", 2, T0 + 41_000, 100, 200, 5)); // partition 0 runs again
        partitionOne(T0 + 60_000, true);
        assertEquals(List.of(), starts(), "partition 0 is at T0+41s again");
        partitionOne(T0 + 60_000, true);
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        driver.advanceWallClockTime(Duration.ofSeconds(5));
        assertEquals(List.of(T0 + 40_000), starts(),
                "both idle: windows close up to the latest event time seen (T0+60s), as when traffic stops");
    }

    private List<Long> starts() {
        return summaries.readValuesToList().stream().map(WindowSummary::getWindowStartMs).toList();
    }

    @Test
    void progressRecordsAndHeartbeatsGoToEveryWindowPartitionRequestsToTheirKeys() {
        HeartbeatBroadcastPartitioner p = new HeartbeatBroadcastPartitioner();
        assertEquals(java.util.Optional.of(java.util.Set.of(0, 1, 2)),
                p.partitions("t", RekeyProcessor.PROGRESS_KEY, null, 3), "progress");
        assertEquals(java.util.Optional.of(java.util.Set.of(0, 1, 2)),
                p.partitions("t", RekeyProcessor.HEARTBEAT_KEY, WindowTestEvents.heartbeat(T0), 3), "heartbeat");
        assertEquals(java.util.Optional.empty(),
                p.partitions("t", "a|b|le4096", completed("run-a", 0, T0, 100, 200, 5), 3), "request");
    }
}

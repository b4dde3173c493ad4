package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input partitions' progress and the close time reached, kept in memory and written once per commit
 * ({@link WindowAggregateStore#beforeFlush}, issue 31): what each commit leaves in the changelog is the progress of
 * the input consumed so far. TopologyTestDriver commits after every record.
 */
class WindowProgressCommitTest {
    private static final String REGISTRY = "mock://window-progress-commit-test";
    private static final String APP = "window-progress-test";
    private static final long T0 = 1_767_225_600_000L;

    @TempDir
    Path stateDir;

    @Test
    void everyCommitLeavesTheProgressAndCloseTimeOfTheInputConsumedSoFar() {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), serde)), builder,
                WindowTopologyConfig.defaults(REGISTRY).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, RunEvent> in = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(),
                    serde.serializer());
            TestOutputTopic<String, byte[]> log = driver.createOutputTopic(
                    APP + "-" + WindowTopology.AGGREGATES_STORE + "-changelog", Serdes.String().deserializer(),
                    Serdes.ByteArray().deserializer());
            Map<String, byte[]> changelog = new HashMap<>();
            long max = Long.MIN_VALUE;
            for (int i = 0; i < 120; i++) {
                long t = T0 + i * 250L;
                RunEvent e = i % 40 == 39 ? heartbeat(t) : completed("run-a", i, t, 50 + i, 900 + i, 10);
                in.pipeInput(e.getRunId(), e, t);
                max = Math.max(max, t);
                for (TestRecord<String, byte[]> r : log.readRecordsToList()) {
                    changelog.put(r.key(), r.value());
                }
                byte[] source = changelog.get(InputProgress.PREFIX + "0");
                assertThat(source).as("input partition 0's progress in the changelog after event %d", i).isNotNull();
                assertThat(ByteBuffer.wrap(source).getLong()).as("its event time after event %d", i).isEqualTo(max);
                byte[] closeTime = changelog.get(TumblingWindowProcessor.STREAM_TIME_KEY);
                assertThat(closeTime).as("close time in the changelog after event %d", i).isNotNull();
                assertThat(Long.parseLong(new String(closeTime, StandardCharsets.US_ASCII)))
                        .as("close time after event %d (one input partition: its event time)", i).isEqualTo(max);
            }
        }
    }
}

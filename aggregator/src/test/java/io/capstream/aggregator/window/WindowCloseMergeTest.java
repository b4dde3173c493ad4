package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window whose closed aggregate already holds requests when it closes (taken as late while the close time had run
 * ahead of the closed windows, as a task initialised again after an aborted transaction could) keeps them: its
 * summary counts both. Before, the close overwrote the closed aggregate and those requests were lost.
 */
class WindowCloseMergeTest {
    private static final String REGISTRY = "mock://window-close-merge-test";
    private static final long T0 = 1_767_225_600_000L;

    @TempDir
    Path stateDir;

    @Test
    void requestsTakenAsLateBeforeTheCloseAreKeptInTheSummary() {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), serde)), builder,
                WindowTopologyConfig.defaults(REGISTRY).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-close-merge-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, RunEvent> in = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(),
                    serde.serializer());
            for (int i = 0; i < 5; i++) {
                RunEvent e = completed("run-a", i, T0 + 1000L * i, 100, 200, 5);
                in.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
            }
            // two requests of the same window, already in its closed aggregate
            WindowAggregateStore store = (WindowAggregateStore) driver.getStateStore(WindowTopology.AGGREGATES_STORE);
            WindowAggregate late = new WindowAggregate(0.01);
            late.addCompleted(new RequestSample(300, 300, 900, null, null, null, 3000L, 5), true);
            late.addFailed("URLError");
            String key = TumblingWindowProcessor.storeKey(T0,
                    WindowTestEvents.TARGET + "|" + WindowTestEvents.MODEL + "|le4096");
            store.put(TumblingWindowProcessor.CLOSED_PREFIX + key, late);

            RunEvent close = heartbeat(T0 + 30_000);
            in.pipeInput(close.getRunId(), close, close.getEmittedAtMs());
            Map<String, WindowSummary> latest = new LinkedHashMap<>();
            driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer())
                    .readKeyValuesToList().forEach(kv -> latest.put(kv.key, kv.value));
            WindowSummary w = latest.get(WindowTestEvents.TARGET + "|" + WindowTestEvents.MODEL + "|le4096|" + T0);
            assertThat(w).as("summary of the first window, of %s", latest.keySet()).isNotNull();
            assertThat(w.getRequests()).as("requests: 5 of the open window and 2 taken as late").isEqualTo(7);
            assertThat(w.getFailed()).as("failed").isEqualTo(1);
            assertThat(store.get(TumblingWindowProcessor.CLOSED_PREFIX + key).requests())
                    .as("requests in the closed aggregate kept for late requests").isEqualTo(7);
        }
    }
}

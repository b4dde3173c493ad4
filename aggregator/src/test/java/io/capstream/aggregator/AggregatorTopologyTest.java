package io.capstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.aggregator.window.WindowTestEvents;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** One run's events through the whole aggregator topology: a report and a window summary. */
class AggregatorTopologyTest {
    private static final String REGISTRY = "mock://aggregator-topology-test";
    private static final long T0 = 1_767_225_600_000L;

    /**
     * One complete run of 3 requests (TTFT ~100 ms) from {@link #T0}, then a heartbeat that closes its
     * 10 s window.
     */
    static void pipeThreeRequestRun(TestInputTopic<String, RunEvent> in, String run) {
        in.pipeInput(run, WindowTestEvents.envelopeOf(run, T0, RunStarted.newBuilder()
                .setBaseUrl(WindowTestEvents.TARGET).setModel(WindowTestEvents.MODEL).setRequests(3)
                .setConcurrency(1).setMaxTokens(64).setPlannedContextTokens(List.of(3000, 3000, 3000))
                .setStartedAt("2026-01-01T00:00:00Z").setStartedAtEpochMs(T0).build()), T0);
        for (int i = 0; i < 3; i++) {
            in.pipeInput(run, WindowTestEvents.completed(run, i, T0 + 1000 + i, 100 + i, 500, 21), T0 + 1000);
        }
        in.pipeInput(run, WindowTestEvents.envelopeOf(run, T0 + 2000, RunFinished.newBuilder()
                .setWallClockNs(2_000_000_000L).setStartedAt("2026-01-01T00:00:00Z")
                .setFinishedAt("2026-01-01T00:00:02Z").setStartedAtEpochMs(T0).setFinishedAtEpochMs(T0 + 2000)
                .setRequestsSent(3).build()), T0 + 2000);
        RunEvent hb = WindowTestEvents.heartbeat(T0 + 12_000);
        in.pipeInput(hb.getRunId(), hb, T0 + 12_000);
    }

    @Test
    void sharedSourceFeedsReportsAndWindows() {
        List<WindowSummary> heard = new CopyOnWriteArrayList<>();
        AggregatorConfig config = AggregatorConfig.of(REGISTRY, Duration.ofSeconds(10), Duration.ofSeconds(1), List.of());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "aggregator-topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(AggregatorTopology.build(config, heard::add), props)) {
            var serializer = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY).serializer();
            TestInputTopic<String, RunEvent> in = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(),
                    serializer);
            String run = "benchmark-test";
            pipeThreeRequestRun(in, run);

            var reports = driver.createOutputTopic(Topics.REPORTS, Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(BenchmarkReport.class, REGISTRY).deserializer()).readValuesToList();
            assertEquals(1, reports.size());
            assertEquals(3, reports.get(0).getCompleted());
            var summaries = driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer()).readValuesToList();
            assertEquals(1, summaries.size());
            assertEquals(3, summaries.get(0).getCompleted());
            assertEquals(List.of(summaries.get(0)), heard, "the listener hears every closed window");
            KeyValueStore<String, BenchmarkReport> store = driver.getKeyValueStore(AggregatorTopology.REPORTS_STORE);
            assertEquals(run, store.get(run).getRunId());
            assertThat(store.get(run).getArtifactJson()).contains("\"run_id\"");
        }
    }
}

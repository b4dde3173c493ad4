package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.envelopeOf;
import static io.capstream.aggregator.window.WindowTestEvents.failed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replayed run ({@code RunStarted.origin = "replay:<id>"}, its original completion times) is left out of the windows:
 * before, its requests were counted a second time in the windows they had already been counted in (a fresh-user pass:
 * a window's 56 requests became 96 after a replay, and {@code capstream_requests_total} doubled).
 */
class WindowReplaysTest {
    private static final String REGISTRY = "mock://window-replays-test";
    /** A window-aligned epoch ms. */
    private static final long T0 = 1_767_225_600_000L;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private static RunEvent started(String runId, String origin) {
        RunStarted s = RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel(WindowTestEvents.MODEL).setEngine("capstream-sim")
                .setRequests(3).setConcurrency(1).setContextTokens(3000).setMaxContextTokens(131072).setMaxTokens(64)
                .setThinkingMode("disabled").setPlannedContextTokens(List.of(3000, 3000, 3000))
                .setStartedAt("2026-01-01T00:00:00Z").setStartedAtEpochMs(T0).setOrigin(origin).build();
        return envelopeOf(runId, T0, s);
    }

    private static RunEvent finished(String runId, long at) {
        return envelopeOf(runId, at, RunFinished.newBuilder().setWallClockNs(3_000_000_000L)
                .setStartedAt("2026-01-01T00:00:00Z").setFinishedAt("2026-01-01T00:00:03Z")
                .setStartedAtEpochMs(T0).setFinishedAtEpochMs(at).setRequestsSent(3).build());
    }

    /** The run's events: RunStarted, two completed requests and one failed in [T0, T0 + 10 s), RunFinished. */
    private static List<RunEvent> run(String runId, String origin) {
        return List.of(started(runId, origin),
                completed(runId, 0, T0 + 1000, 100, 400, 20),
                completed(runId, 1, T0 + 2000, 300, 900, 20),
                failed(runId, 2, T0 + 3000, "TimeoutError"),
                finished(runId, T0 + 3100));
    }

    @Test
    void aReplaysRequestsAreNotCountedInTheirWindowsAgain() {
        WindowTopologyConfig config = WindowTopologyConfig.defaults(REGISTRY)
                .withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2));
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> eventSerde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        KStream<String, RunEvent> in = builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), eventSerde));
        WindowTopology.addTo(in, builder, config, (target, model, bucket) -> { });
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-replays-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(builder.build(), props);
        TestInputTopic<String, RunEvent> events = driver.createInputTopic(Topics.EVENTS,
                Serdes.String().serializer(), eventSerde.serializer());
        TestOutputTopic<String, WindowSummary> summaries = driver.createOutputTopic(Topics.SUMMARIES,
                Serdes.String().deserializer(), SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());

        List<RunEvent> all = new ArrayList<>(run("run-a", "live"));
        all.addAll(run("run-a-replay-20260101T000100000Z", "replay:run-a"));
        all.addAll(run("run-b", "import")); // an imported artifact's requests are new to the topic: counted
        all.add(heartbeat(T0 + 13_000)); // closes [T0, T0 + 10 s)
        for (RunEvent e : all) {
            events.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
        }
        List<WindowSummary> out = summaries.readValuesToList();
        assertThat(out).as("summaries emitted: %s", out).hasSize(1);
        WindowSummary w = out.get(0);
        assertThat(List.of(w.getRequests(), w.getCompleted(), w.getFailed()))
                .as("requests, completed, failed of the window (run-a and run-b, not run-a's replay): %s", w)
                .containsExactly(6L, 4L, 2L);
        assertThat(w.getTtftMs().getCount()).as("TTFT samples: %s", w.getTtftMs()).isEqualTo(4);
    }

    @Test
    void aReplayInFlightIsStillLeftOutAfterItsTaskIsInitialisedAgain() {
        MockProcessorContext<String, Object> context = new MockProcessorContext<>();
        KeyValueStore<String, Long> store = ReplayedRuns.storeBuilder("replays").withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        ReplayedRuns first = new ReplayedRuns();
        first.init(store);
        String replay = "run-a-replay-1";
        Object request = completed(replay, 0, T0 + 1000, 100, 400, 20).getPayload();
        assertThat(first.isReplay(replay, started(replay, "replay:run-a").getPayload()))
                .as("the replay's RunStarted").isTrue();
        assertThat(first.isReplay("run-a", started("run-a", "live").getPayload())).as("a live RunStarted").isFalse();
        assertThat(first.isReplay("run-a", completed("run-a", 0, T0 + 1000, 100, 400, 20).getPayload()))
                .as("a live run's request").isFalse();

        ReplayedRuns again = new ReplayedRuns(); // the task initialised again, its store restored
        again.init(store);
        assertThat(again.isReplay(replay, request)).as("the replay's request after the restart").isTrue();
        assertThat(again.isReplay(replay, finished(replay, T0 + 3100).getPayload())).as("its RunFinished").isTrue();
        assertThat(store.approximateNumEntries()).as("store entries once the replay finished").isZero();
        assertThat(again.isReplay(replay, request)).as("a request of the id after its RunFinished").isFalse();
    }
}

package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.MODEL;
import static io.capstream.aggregator.window.WindowTestEvents.TARGET;
import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.failed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.aggregator.slo.SloTopology;
import io.capstream.aggregator.slo.SloTopologyConfig;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.ServerWindowSeries;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The window and SLO topologies on TopologyTestDriver. */
class WindowTopologyTest {
    private static final String REGISTRY = "mock://window-topology-test";
    /** A window-aligned epoch ms: windows of 10 s start at T0, T0 + 10 s, ... */
    private static final long T0 = 1_767_225_600_000L;

    private TopologyTestDriver driver;
    private TestInputTopic<String, RunEvent> events;
    private TestOutputTopic<String, WindowSummary> summaries;
    private TestOutputTopic<String, SloBreach> alerts;
    private final List<String> late = new java.util.ArrayList<>();

    private void start(List<String> slos) {
        start(slos, null);
    }

    /** @param wallClock the driver's initial wall-clock time; null for the system clock's */
    private void start(List<String> slos, Instant wallClock) {
        var parsed = SloParser.parseAll(slos);
        WindowTopologyConfig config = WindowTopologyConfig.defaults(REGISTRY)
                .withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2)).withSlos(parsed);
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> eventSerde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        KStream<String, RunEvent> in = builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), eventSerde));
        KStream<String, WindowSummary> out = WindowTopology.addTo(in, builder, config,
                (target, model, bucket) -> late.add(target + "|" + bucket));
        SloTopology.addTo(out, builder, new SloTopologyConfig(parsed, Topics.ALERTS, REGISTRY, Duration.ofDays(1),
                Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC)).withDecision(SloDecision.point(1)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = wallClock == null ? new TopologyTestDriver(builder.build(), props)
                : new TopologyTestDriver(builder.build(), props, wallClock);
        events = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(), eventSerde.serializer());
        summaries = driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());
        alerts = driver.createOutputTopic(Topics.ALERTS, Serdes.String().deserializer(),
                SpecificAvroSerde.forValue(SloBreach.class, REGISTRY).deserializer());
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

    @Test
    void twoWindowsWithCountsAndFailuresClosingOnHeartbeatOnly() {
        start(List.of());
        // window 1 [T0, T0+10s): 10 completed (TTFT 100..1000 ms), 3 failed
        for (int i = 0; i < 10; i++) {
            send(completed("run-a", i, T0 + 500 + i * 900L, 100.0 * (i + 1), 1000.0 + 100 * i, 51));
        }
        send(failed("run-a", 10, T0 + 9000, "URLError"));
        send(failed("run-a", 11, T0 + 9100, "URLError"));
        send(failed("run-a", 12, T0 + 9200, "HTTPError"));
        // window 2 [T0+10s, T0+20s): 4 completed, 1 failed
        for (int i = 0; i < 4; i++) {
            send(completed("run-b", i, T0 + 10_100 + i * 300L, 50.0, 500.0, 11));
        }
        assertTrue(summaries.isEmpty(), "no window is closed before stream time passes end + grace");
        send(failed("run-b", 4, T0 + 13_000, "TimeoutError")); // stream time T0+13s >= T0+10s+2s: window 1 closes

        List<KeyValue<String, WindowSummary>> first = summaries.readKeyValuesToList();
        assertEquals(1, first.size());
        WindowSummary w1 = first.get(0).value;
        assertEquals(TARGET + "|" + MODEL + "|le4096|" + T0, first.get(0).key);
        assertEquals(T0, w1.getWindowStartMs());
        assertEquals(T0 + 10_000, w1.getWindowEndMs());
        assertEquals("le4096", w1.getContextBucket());
        assertEquals(13, w1.getRequests());
        assertEquals(10, w1.getCompleted());
        assertEquals(3, w1.getFailed());
        assertEquals(Map.of("URLError", 2L, "HTTPError", 1L), w1.getFailuresByType());
        assertEquals(3.0 / 13, w1.getErrorRate(), 1e-12);
        assertEquals(30_000, w1.getPromptTokens());
        assertEquals(510, w1.getOutputTokens());
        assertEquals(51.0, w1.getOutputThroughputTokS(), 1e-9);
        assertEquals(0.01, w1.getRelativeAccuracy());
        assertEquals(10, w1.getTtftMs().getCount());
        assertEquals(500.0, w1.getTtftMs().getP50(), 5.0);   // nearest rank: 5th of 10
        assertEquals(1000.0, w1.getTtftMs().getP95(), 10.0); // the maximum
        assertEquals(1000.0, w1.getTtftMs().getP99(), 10.0);
        assertEquals(10, w1.getItlMs().getCount());
        assertNull(w1.getGoodput(), "no SLOs: no goodput");

        // traffic stops; only heartbeats arrive
        send(heartbeat(T0 + 21_000));
        assertTrue(summaries.isEmpty(), "stream time T0+21s < T0+20s+2s");
        send(heartbeat(T0 + 22_000));
        List<WindowSummary> second = summaries.readValuesToList();
        assertEquals(1, second.size(), "the heartbeat closes window 2 and creates no window of its own");
        WindowSummary w2 = second.get(0);
        assertEquals(T0 + 10_000, w2.getWindowStartMs());
        assertEquals(5, w2.getRequests());
        assertEquals(4, w2.getCompleted());
        assertEquals(Map.of("TimeoutError", 1L), w2.getFailuresByType());
        send(heartbeat(T0 + 60_000));
        assertTrue(summaries.isEmpty(), "heartbeats alone never produce summaries");

        WindowStore<String, WindowSummary> store = driver.getWindowStore(WindowTopology.SUMMARIES_STORE);
        try (var it = store.fetch(TARGET + "|" + MODEL + "|le4096", T0, T0 + 60_000)) {
            assertEquals(T0, it.next().key);
            assertEquals(T0 + 10_000, it.next().key);
        }
    }

    /**
     * A run with --server-metrics sends each scrape as a heartbeat with server_samples, in time order with its
     * requests: every summary of that window, target and model carries the window's min/p50/max/last.
     */
    @Test
    void scrapesOfTheEndpointsMetricsGoIntoTheirWindowsSummaries() {
        start(List.of());
        send(serverSamples(T0 + 100, Map.of("requests_running", 2.0, "requests_waiting", 0.0)));
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        RunEvent other = completed("run-a", 1, T0 + 600, 100, 200, 5);
        ((io.capstream.schemas.avro.RequestCompleted) other.getPayload()).setPlannedContextTokens(9000);
        send(other); // another context bucket
        send(serverSamples(T0 + 1100, Map.of("requests_running", 4.0, "requests_waiting", 3.0)));
        send(serverSamples(T0 + 2100, Map.of("requests_running", 3.0, "requests_waiting", 1.0)));
        send(serverSamples(T0 + 10_100, Map.of("requests_running", 9.0))); // the next window's
        send(completed("run-a", 2, T0 + 10_500, 100, 200, 5));
        send(heartbeat(T0 + 12_500)); // window 1 closes

        List<WindowSummary> first = summaries.readValuesToList();
        assertEquals(2, first.size(), "two context buckets");
        for (WindowSummary w : first) {
            ServerWindowSeries running = w.getServerMetrics().get("requests_running");
            assertEquals(3, running.getSamples());
            assertEquals(2.0, running.getMin());
            assertEquals(3.0, running.getP50(), "nearest rank: 2nd of 2, 3, 4");
            assertEquals(4.0, running.getMax());
            assertEquals(3.0, running.getLast(), "the latest scrape's");
            assertEquals(1.0, w.getServerMetrics().get("requests_waiting").getLast());
        }
        // the scrapes have their own store: the open window's only; none in the aggregates store
        org.apache.kafka.streams.state.KeyValueStore<String, io.capstream.schemas.avro.ServerWindowState> server =
                driver.getKeyValueStore(WindowTopology.SERVER_STORE);
        org.assertj.core.api.Assertions.assertThat(keys(server)).as("server store keys after window 1 closed")
                .singleElement().asString().endsWith("|" + TARGET + "|" + MODEL);
        org.assertj.core.api.Assertions.assertThat(keys(aggregatesStore()))
                .as("aggregates store keys").noneMatch(k -> k.contains("~server"));
        send(heartbeat(T0 + 40_000));
        org.assertj.core.api.Assertions.assertThat(keys(server)).as("server store keys after every window closed")
                .isEmpty();
        WindowSummary second = summaries.readValuesToList().get(0);
        assertEquals(1, second.getServerMetrics().get("requests_running").getSamples());
        assertEquals(9.0, second.getServerMetrics().get("requests_running").getMax());
        assertEquals(null, second.getServerMetrics().get("requests_waiting"));
    }

    /**
     * Versions before the server store kept a window's scrapes in the aggregates store under a {@code ~server}
     * bucket, in a hand-written format: such an entry, restored after an upgrade, is deleted unread when its
     * window closes, and the window's summaries are emitted without it.
     */
    @Test
    void aLegacyServerEntryInTheAggregatesStoreIsDeletedUnreadWhenItsWindowCloses() {
        start(List.of());
        org.apache.kafka.streams.state.KeyValueStore<String, byte[]> aggregates = aggregatesStore();
        String legacy = TumblingWindowProcessor.storeKey(T0, TARGET + "|" + MODEL + "|~server");
        aggregates.put(legacy, new byte[] {1, 0, 0, 0, 1, 0, 1, 'x', 0, 0, 0, 0});
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        send(heartbeat(T0 + 12_500));
        List<WindowSummary> closed = summaries.readValuesToList();
        org.assertj.core.api.Assertions.assertThat(closed).as("summaries of the closed window").hasSize(1);
        assertNull(closed.get(0).getServerMetrics());
        org.assertj.core.api.Assertions.assertThat(keys(aggregates)).as("aggregates store keys").doesNotContain(legacy);
    }

    @Test
    void aWindowWithoutScrapesHasNoServerMetrics() {
        start(List.of());
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        send(heartbeat(T0 + 12_500));
        assertEquals(null, summaries.readValuesToList().get(0).getServerMetrics());
    }

    /**
     * Issue 31: the summary carries exact bucket counts per latency (GenAI bounds, seconds), one value per request and,
     * for inter_chunk, one per output chunk gap; a window's histogram agrees with its own counts.
     */
    @Test
    void summariesCarryExactBucketCountsPerLatency() {
        start(List.of());
        for (int i = 0; i < 10; i++) {
            RunEvent c = completed("run-a", i, T0 + 500 + i * 900L, 100.0 * (i + 1), 1000.0 + 100 * i, 51);
            ((io.capstream.schemas.avro.RequestCompleted) c.getPayload())
                    .setOutputChunkGapsUs(List.of(15_000, 30_000, 2_000_000));
            send(c);
        }
        send(failed("run-a", 10, T0 + 9000, "URLError"));
        send(heartbeat(T0 + 12_500));
        WindowSummary w = summaries.readValuesToList().get(0);
        Map<String, io.capstream.schemas.avro.WindowHistogram> h = w.getHistograms();
        org.assertj.core.api.Assertions.assertThat(h).as("measures with values").containsOnlyKeys("ttft", "ttfo", "e2e",
                "inter_chunk");
        // TTFT 0.1..1.0 s: 0.1 in (0.08,0.16], 0.2 and 0.3 in (0.16,0.32], 0.4..0.6 in (0.32,0.64], 0.7..1.0 in (0.64,1.28]
        org.assertj.core.api.Assertions.assertThat(h.get("ttft").getCounts()).as("TTFT bucket counts")
                .containsExactly(0L, 0L, 0L, 0L, 1L, 2L, 3L, 4L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
        org.assertj.core.api.Assertions.assertThat(h.get("ttft").getCount()).as("TTFT count = completed requests")
                .isEqualTo(w.getTtftMs().getCount());
        org.assertj.core.api.Assertions.assertThat(h.get("ttft").getSumS()).as("TTFT sum, s")
                .isCloseTo(5.5, org.assertj.core.data.Offset.offset(1e-9));
        org.assertj.core.api.Assertions.assertThat(h.get("e2e").getCounts()).as("E2E 1.0..1.9 s")
                .containsExactly(0L, 0L, 0L, 0L, 0L, 0L, 0L, 3L, 7L, 0L, 0L, 0L, 0L, 0L, 0L);
        org.assertj.core.api.Assertions.assertThat(h.get("inter_chunk").getCounts()).as("3 gaps per request")
                .containsExactly(0L, 10L, 10L, 0L, 0L, 0L, 0L, 0L, 10L, 0L, 0L, 0L, 0L, 0L, 0L);
        org.assertj.core.api.Assertions.assertThat(h.get("ttft").getBoundsS()).as("bounds")
                .isEqualTo(LatencyMeasure.BOUNDS_S);
    }

    /**
     * Issue 31: when a live feed's traffic stops, its last window closes on the wall clock (the idle partition's
     * progress follows it less a margin), without waiting for the next run's traffic; a replay of old events does not.
     * Failed before: the window stayed open until a later event or heartbeat.
     */
    @Test
    void theLastWindowOfALiveFeedClosesOnTheWallClockWhenTrafficStops() {
        start(List.of(), Instant.ofEpochMilli(T0 + 1_000));
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        send(completed("run-a", 1, T0 + 900, 100, 200, 5));
        // idle after 10 s without records; the window [T0, T0+10 s) closes once progress >= T0 + 12 s (grace 2 s),
        // i.e. at wall clock T0 + 14 s (margin 2 s)
        for (int s = 0; s < 12; s++) {
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
        org.assertj.core.api.Assertions.assertThat(summaries.isEmpty()).as("open at wall clock T0 + 13 s").isTrue();
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        List<WindowSummary> closed = summaries.readValuesToList();
        org.assertj.core.api.Assertions.assertThat(closed).as("the run's window at wall clock T0 + 15 s").hasSize(1);
        org.assertj.core.api.Assertions.assertThat(closed.get(0).getCompleted()).as("its requests").isEqualTo(2);
    }

    /** Issue 31: a feed of old events (a replay) that stops keeps its event time: its last window stays open. */
    @Test
    void anOldFeedThatStopsKeepsItsEventTime() {
        start(List.of(), Instant.ofEpochMilli(T0 + 3_600_000));
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        for (int s = 0; s < 30; s++) {
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
        org.assertj.core.api.Assertions.assertThat(summaries.readValuesToList()).as("summaries of an hour-old feed")
                .isEmpty();
    }

    /** Issue 30: requests the client cancelled on purpose are counted apart, not as failures nor requests. */
    @Test
    void cancelledRequestsAreNeitherFailuresNorRequestsOfTheWindow() {
        start(List.of());
        send(completed("run-a", 0, T0 + 500, 100, 200, 5));
        send(failed("run-a", 1, T0 + 600, "URLError"));
        for (int i = 2; i < 4; i++) {
            RunEvent c = failed("run-a", i, T0 + 700, "Cancelled");
            ((io.capstream.schemas.avro.RequestFailed) c.getPayload()).setCancelled(true);
            send(c);
        }
        send(heartbeat(T0 + 12_500));
        WindowSummary w = summaries.readValuesToList().get(0);
        org.assertj.core.api.Assertions.assertThat(w.getCancelled()).as("cancelled").isEqualTo(2L);
        org.assertj.core.api.Assertions.assertThat(w.getFailed()).as("failed").isEqualTo(1);
        org.assertj.core.api.Assertions.assertThat(w.getRequests()).as("requests = completed + failed").isEqualTo(2);
        org.assertj.core.api.Assertions.assertThat(w.getFailuresByType()).as("failures by type")
                .isEqualTo(Map.of("URLError", 1L));
        org.assertj.core.api.Assertions.assertThat(w.getErrorRate()).as("error rate").isEqualTo(0.5);
    }

    /** @return the entries of the window step's store, aggregates written at the last commit */
    private org.apache.kafka.streams.state.KeyValueStore<String, byte[]> aggregatesStore() {
        return ((WindowAggregateStore) driver.getStateStore(WindowTopology.AGGREGATES_STORE)).bytes();
    }

    private static List<String> keys(org.apache.kafka.streams.state.KeyValueStore<String, ?> store) {
        List<String> out = new java.util.ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> out.add(kv.key));
        }
        return out;
    }

    private static RunEvent serverSamples(long t, Map<String, Double> samples) {
        return WindowTestEvents.envelopeOf("run-a", t, new Heartbeat(TARGET, MODEL, samples, null));
    }

    /**
     * A request for a window that has closed is merged into it, and the window's summary is emitted again (same key,
     * header capstream.window.update) within a second (wall clock), once for all that came in that second; SLO
     * alerts are not judged again. A request later than the lateness (6 h) is dropped and counted: late_dropped in
     * the window's summary, the listener (Prometheus counter).
     */
    @Test
    void lateRequestsAreMergedIntoTheirClosedWindowAndTooLateOnesCounted() {
        start(List.of("ttft_p95_ms<=500"));
        send(completed("run-a", 0, T0 + 1000, 900, 1200, 5)); // breaches the SLO
        send(heartbeat(T0 + 12_000));
        List<KeyValue<String, WindowSummary>> first = summaries.readKeyValuesToList();
        assertEquals(1, first.size(), "window 1 closed: " + first);
        assertEquals(1, first.get(0).value.getRequests());
        assertEquals(0, first.get(0).value.getLateDropped(), "nothing late when it closes");
        assertEquals(1, alerts.readValuesToList().size(), "one BREACH");

        send(completed("run-a", 1, T0 + 2000, 100, 200, 5)); // window 1 already closed
        send(failed("run-a", 2, T0 + 3000, "URLError"));
        RunEvent otherBucket = completed("run-a", 3, T0 + 4000, 100, 200, 5);
        ((io.capstream.schemas.avro.RequestCompleted) otherBucket.getPayload()).setPlannedContextTokens(9000);
        send(otherBucket); // a key without a summary in window 1
        assertTrue(summaries.isEmpty(), "updates wait for the next flush");

        driver.advanceWallClockTime(Duration.ofSeconds(1));
        var updates = summaries.readRecordsToList();
        assertEquals(2, updates.size(), "one update per window and key: " + updates);
        WindowSummary update = updates.stream().filter(r -> r.key().equals(first.get(0).key)).findFirst()
                .orElseThrow().value();
        assertEquals(3, update.getRequests(), "the late requests are merged");
        assertEquals(1, update.getFailed());
        assertEquals(2, update.getTtftMs().getCount());
        assertEquals(0, update.getLateDropped(), "nothing dropped");
        assertTrue(updates.stream().allMatch(r -> r.headers().lastHeader("capstream.window.update") != null),
                "updates carry the header");
        WindowSummary other = updates.stream().filter(r -> r.value().getContextBucket().equals("le16384"))
                .findFirst().orElseThrow().value();
        assertEquals(1, other.getRequests(), "a key first seen late gets its window");
        assertEquals(T0, other.getWindowStartMs());
        assertTrue(alerts.isEmpty(), "SLOs are judged once per window, not on updates");
        assertEquals(List.of(), late, "nothing dropped");
        WindowStore<String, WindowSummary> store = driver.getWindowStore(WindowTopology.SUMMARIES_STORE);
        assertEquals(3, store.fetch(TARGET + "|" + MODEL + "|le4096", T0).getRequests(),
                "the queryable store has the update");
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertTrue(summaries.isEmpty(), "nothing new late: no update");

        send(heartbeat(T0 + 7 * 3_600_000L)); // window 1 is now more than 6 h behind
        summaries.readValuesToList();
        send(completed("run-a", 4, T0 + 5000, 100, 200, 5));
        send(completed("run-a", 5, T0 + 6000, 100, 200, 5));
        assertEquals(List.of(TARGET + "|le4096", TARGET + "|le4096"), late, "the listener hears of each drop");
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        WindowSummary dropped = summaries.readValuesToList().get(0);
        assertEquals(2, dropped.getLateDropped(), "late_dropped of the update");
        assertEquals(3, dropped.getRequests(), "the counts stay those of the window");
    }

    @Test
    void sloBreachAndRecoveryWithGoodput() {
        start(List.of("ttft_p95_ms<=500", "error_rate<=0.5"));
        // window 1: fast
        for (int i = 0; i < 5; i++) {
            send(completed("run", i, T0 + 1000 + i, 100, 400, 21));
        }
        // window 2: slow (p95 over the SLO), one of four requests still fast
        send(completed("run", 5, T0 + 11_000, 100, 400, 21));
        for (int i = 6; i < 9; i++) {
            send(completed("run", i, T0 + 11_000 + i, 900, 1400, 21));
        }
        // window 3: fast again
        send(completed("run", 9, T0 + 21_000, 100, 400, 21));
        send(heartbeat(T0 + 40_000));

        List<WindowSummary> s = summaries.readValuesToList();
        assertEquals(3, s.size());
        assertEquals(1.0, s.get(0).getGoodput());
        assertEquals(5L, s.get(0).getGoodputRequests());
        assertEquals(0.25, s.get(1).getGoodput());
        assertTrue(s.get(1).getTtftMs().getP95() > 500);

        List<KeyValue<String, SloBreach>> a = alerts.readKeyValuesToList();
        assertEquals(2, a.size());
        assertEquals(TARGET + "|" + MODEL, a.get(0).key);
        SloBreach breach = a.get(0).value;
        assertEquals(SloState.BREACH, breach.getState());
        assertEquals("ttft_p95_ms<=500", breach.getSlo());
        assertEquals("ttft_p95_ms", breach.getMetric());
        assertEquals("<=", breach.getComparison());
        assertEquals(500.0, breach.getThreshold());
        assertEquals(900.0, breach.getObserved(), 9.0);
        assertEquals(T0 + 10_000, breach.getWindowStartMs());
        assertEquals(T0, breach.getDetectedAtMs());
        SloBreach recovered = a.get(1).value;
        assertEquals(SloState.RECOVERED, recovered.getState());
        assertEquals(T0 + 20_000, recovered.getWindowStartMs());
    }
}

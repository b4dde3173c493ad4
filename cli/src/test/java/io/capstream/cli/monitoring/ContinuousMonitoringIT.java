package io.capstream.cli.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.loadgen.continuous.ContinuousConfig;
import io.capstream.loadgen.continuous.ContinuousListener;
import io.capstream.loadgen.continuous.ContinuousRunner;
import io.capstream.loadgen.continuous.KafkaHeartbeatSender;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Continuous monitoring end to end on the embedded broker: the aggregator (reports, 5 s windows
 * with 1 s grace, SLO ttft_p95_ms<=800) and the continuous generator against the in-process
 * simulated engine. The first window sees a fast engine, the second a slow one (TTFT 1500 ms);
 * then traffic stops and only heartbeats arrive. Expected: two summaries with the right counts,
 * the second's p95 TTFT above the SLO, exactly one SloBreach, both windows closed by heartbeats, and each
 * window's {@code server_metrics} from the sim's own {@code /metrics} (scraped by the runs, issue 15).
 */
class ContinuousMonitoringIT {
    private static final long WINDOW_MS = 5_000;
    private static final int REQUESTS = 8;

    @TempDir
    Path stateDir;

    @Test
    void twoWindowsWithSlowdownGiveTwoSummariesAndOneBreach() throws Exception {
        String registry = "mock://monitoring-it-" + UUID.randomUUID();
        Vertx vertx = Vertx.vertx();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bootstrap, Map.of(), 3);
            AggregatorConfig config = AggregatorConfig.of(registry, Duration.ofMillis(WINDOW_MS), Duration.ofSeconds(1),
                    SloParser.parseAll(List.of("ttft_p95_ms<=800")));
            config = config.withSlo(config.slo().withDecision(SloDecision.point(1))); // few requests per window
            try (AggregatorService aggregator = AggregatorService.start(config,
                    StreamsSettings.defaults("monitoring-it", bootstrap, stateDir), new ApiConfig("127.0.0.1", 0))) {
                // no need to wait for RUNNING: events wait on the topic; the warm-up overlaps the rebalance
                SimConfig fast = SimConfig.builder().ttftBaseMs(20).decodeTokPerS(5000).streamDecodeTokPerS(2000)
                        .batchSlots(64).build();
                AtomicReference<SimEngine> sim = new AtomicReference<>(SimEngine.start(vertx, fast).await());
                int port = sim.get().port();
                String target = sim.get().baseUrl();

                RunConfig probe = RunConfig.of(TargetConfig.of(target, "sim-model"))
                        .withServerMetrics(io.capstream.loadgen.servermetrics.ServerMetricsConfig.AUTO)
                        .withTarget(t -> t.withTimeoutS(10))
                        .withLoad(l -> l.withRequests(REQUESTS).withConcurrency(REQUESTS))
                        .withRequest(r -> r.withMaxTokens(8).withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(4096))
                        .withIdentity(i -> i.withWorkerId("monitoring-it"));
                // warm-up (JIT, connections) without events, so that the first window measures a warm client
                new LoadGenerator(vertx).run(probe, new InMemoryEventSink(), RunListener.NONE).get(120, TimeUnit.SECONDS);
                KafkaHeartbeatSender heartbeats = KafkaHeartbeatSender.create(bootstrap, registry, Map.of(),
                        "monitoring-it");
                List<RunOutcome> outcomes = new CopyOnWriteArrayList<>();
                AtomicReference<ContinuousRunner> runnerRef = new AtomicReference<>();
                ContinuousListener swapAfterFirstRun = new ContinuousListener() {
                    @Override
                    public void onRunFinished(int iteration, RunOutcome outcome) {
                        outcomes.add(outcome);
                        if (iteration == 0) {
                            // injected slowdown: the same endpoint now answers with TTFT ~1500 ms
                            sim.get().close();
                            sim.set(SimEngine.start(vertx, fast.toBuilder().port(port).ttftBaseMs(1500).build())
                                    .await());
                        } else {
                            runnerRef.get().stop();
                        }
                    }
                };
                ContinuousRunner runner = new ContinuousRunner(new LoadGenerator(vertx),
                        () -> new KafkaEventSink(KafkaSinkConfig.of(bootstrap, registry)), heartbeats,
                        new ContinuousConfig(probe, ContinuousConfig.Mode.PROBE, Duration.ofMillis(WINDOW_MS),
                                Duration.ofMillis(500)), swapAfterFirstRun, RunListener.NONE);
                runnerRef.set(runner);

                // start 200 ms into a window, so that each run's requests end inside one window
                long firstWindow = (System.currentTimeMillis() / WINDOW_MS + 1) * WINDOW_MS;
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                        .until(() -> System.currentTimeMillis() >= firstWindow + 200);
                CompletableFuture<Void> session = CompletableFuture.runAsync(() -> {
                    try {
                        runner.run();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                session.get(120, TimeUnit.SECONDS);
                assertEquals(2, outcomes.size());
                assertEquals(REQUESTS, outcomes.get(0).completed());
                assertEquals(REQUESTS, outcomes.get(1).completed());

                // traffic has stopped: only heartbeats from now on
                ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor();
                beat.scheduleAtFixedRate(() -> heartbeats.beat(new Heartbeat(target, "sim-model", java.util.Map.of(), null)), 0, 300,
                        TimeUnit.MILLISECONDS);
                try (KafkaConsumer<String, SpecificRecord> summaries = consumer(bootstrap, registry, WindowSummary.class);
                     KafkaConsumer<String, SpecificRecord> alerts = consumer(bootstrap, registry, SloBreach.class)) {
                    summaries.subscribe(List.of(Topics.SUMMARIES));
                    alerts.subscribe(List.of(Topics.ALERTS));
                    List<WindowSummary> seen = new ArrayList<>();
                    await().atMost(Duration.ofSeconds(120)).until(() -> {
                        summaries.poll(Duration.ofMillis(200)).forEach(r -> {
                            WindowSummary s = (WindowSummary) r.value();
                            if (s.getTarget().equals(target)) {
                                seen.add(s);
                            }
                        });
                        return seen.size() >= 2;
                    });
                    List<SloBreach> breaches = new ArrayList<>();
                    await().atMost(Duration.ofSeconds(60)).until(() -> {
                        alerts.poll(Duration.ofMillis(200)).forEach(r -> breaches.add((SloBreach) r.value()));
                        return !breaches.isEmpty();
                    });
                    // nothing else arrives while only heartbeats flow
                    for (int i = 0; i < 5; i++) {
                        summaries.poll(Duration.ofMillis(200)).forEach(r -> seen.add((WindowSummary) r.value()));
                        alerts.poll(Duration.ofMillis(100)).forEach(r -> breaches.add((SloBreach) r.value()));
                    }

                    assertEquals(2, seen.size(), "two windows, none created by heartbeats: " + seen);
                    WindowSummary w1 = seen.get(0);
                    WindowSummary w2 = seen.get(1);
                    assertEquals(firstWindow, w1.getWindowStartMs());
                    assertEquals(firstWindow + WINDOW_MS, w2.getWindowStartMs());
                    assertEquals(REQUESTS, w1.getRequests());
                    assertEquals(REQUESTS, w1.getCompleted());
                    assertEquals(REQUESTS, w2.getRequests());
                    assertEquals(0, w2.getFailed());
                    assertTrue(w1.getTtftMs().getP95() < 800, "window 1 p95 TTFT " + w1.getTtftMs().getP95());
                    assertTrue(w2.getTtftMs().getP95() > 800, "window 2 p95 TTFT " + w2.getTtftMs().getP95());
                    assertEquals(1.0, w1.getGoodput());
                    assertEquals(0.0, w2.getGoodput());
                    // the sim's own /metrics, scraped at each run's start and after its last request, both in the
                    // run's window: nothing waited for a slot (64 slots), and the engine's token counter rose by the
                    // run's 8 x 8 output tokens between the two scrapes
                    for (WindowSummary w : List.of(w1, w2)) {
                        var server = w.getServerMetrics();
                        assertTrue(server != null && server.containsKey("requests_running"), "server_metrics: " + server);
                        assertTrue(server.get("requests_running").getSamples() >= 2, server.toString());
                        assertEquals(0.0, server.get("requests_waiting").getMax(), server.toString());
                        var tokens = server.get("generation_tokens");
                        assertEquals(REQUESTS * 8.0, tokens.getLast() - tokens.getMin(), server.toString());
                    }

                    assertEquals(1, breaches.size(), "exactly one alert: " + breaches);
                    SloBreach breach = breaches.get(0);
                    assertEquals(SloState.BREACH, breach.getState());
                    assertEquals("ttft_p95_ms<=800", breach.getSlo());
                    assertEquals(firstWindow + WINDOW_MS, breach.getWindowStartMs());
                    assertTrue(breach.getObserved() > 800);

                    // the HTTP API answers from the stores
                    String base = "http://127.0.0.1:" + aggregator.httpPort();
                    String api = get(base + "/api/summaries?target=" + java.net.URLEncoder.encode(target,
                            java.nio.charset.StandardCharsets.UTF_8) + "&from=" + firstWindow);
                    assertEquals(2, api.split("\"window_start_ms\"").length - 1, api);
                    assertThat(get(base + "/api/alerts")).contains("\"BREACH\"");
                    String metrics = get(base + "/metrics");
                    assertThat(metrics).as("gauges on /metrics").contains("capstream_window_ttft_seconds{");
                    assertThat(metrics).as("counters on /metrics").contains("capstream_requests_total{");
                    assertThat(metrics).as("Streams client metrics on /metrics").contains("kafka_stream");
                    await().atMost(Duration.ofSeconds(60)).until(() -> get(base + "/api/runs")
                            .split("\"run_id\"").length - 1 == 2);
                    assertThat(get(base + "/ready")).contains("true");
                } finally {
                    beat.shutdownNow();
                    heartbeats.close();
                    sim.get().close();
                }
            }
        } finally {
            vertx.close().await();
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static KafkaConsumer<String, SpecificRecord> consumer(String bootstrap, String registry,
                                                                  Class<? extends SpecificRecord> type) {
        Deserializer<SpecificRecord> value = (Deserializer) SpecificAvroSerde.forValue((Class) type, registry)
                .deserializer();
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "monitoring-it-" + type.getSimpleName() + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), value);
    }
}

package io.capstream.cli.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.loadgen.continuous.KafkaHeartbeatSender;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.avro.Heartbeat;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's {@code prometheus}, skipped when {@code /usr/bin/prometheus} is absent) scrapes
 * {@code aggregate}'s {@code /metrics} every second while one run against the in-process sim fills one 10 s window
 * (embedded broker, aggregator with its HTTP API). The sim has 4 batch slots for 16 concurrent requests, so TTFTs
 * queue and spread over several GenAI buckets. Once the window has closed, Prometheus'
 * {@code histogram_quantile(0.95, sum by (le) (capstream_ttft_seconds_bucket{target=...}))} must fall in the same or
 * an adjacent bucket as the window's exact p95 TTFT (the summary on {@code /api/summaries}); the histogram's count is
 * the window's TTFT count. The aggregator is fresh, so its cumulative histogram is that one window's.
 */
class PrometheusScrapeIT {
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final long WINDOW_MS = 10_000;
    private static final int REQUESTS = 48;
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void histogramQuantileOfTheScrapedTtftBucketsAgreesWithTheWindowsExactP95WithinOneBucket() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PROMETHEUS), "Prometheus is not installed (" + PROMETHEUS + ")");
        String registry = "mock://prometheus-it-" + UUID.randomUUID();
        Vertx vertx = Vertx.vertx();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bootstrap, Map.of(), 3);
            AggregatorConfig config = AggregatorConfig.of(registry, Duration.ofMillis(WINDOW_MS), Duration.ofSeconds(1),
                    List.of());
            try (AggregatorService aggregator = AggregatorService.start(config,
                    StreamsSettings.defaults("prometheus-it", bootstrap, dir.resolve("state")),
                    new ApiConfig("127.0.0.1", 0));
                 RunningPrometheus prometheus = RunningPrometheus.start(dir, aggregator.httpPort())) {
                SimEngine sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(40).decodeTokPerS(5000)
                        .streamDecodeTokPerS(2000).batchSlots(4).build()).await();
                String target = sim.baseUrl();
                RunConfig run = RunConfig.of(TargetConfig.of(target, "sim-model"))
                        .withTarget(t -> t.withTimeoutS(20))
                        .withLoad(l -> l.withRequests(REQUESTS).withConcurrency(16))
                        .withRequest(r -> r.withMaxTokens(8).withCtxTokens(64).withSharedPrefixTokens(0)
                                .withMaxModelLen(4096))
                        .withIdentity(i -> i.withWorkerId("prometheus-it"));
                KafkaHeartbeatSender heartbeats = KafkaHeartbeatSender.create(bootstrap, registry, Map.of(),
                        "prometheus-it");
                ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor();
                try {
                    // warm-up without events (JIT, connections), then start 200 ms into a window: one window holds the run
                    new LoadGenerator(vertx).run(run.withLoad(l -> l.withRequests(16)), new InMemoryEventSink(),
                            RunListener.NONE).get(120, TimeUnit.SECONDS);
                    long window = (System.currentTimeMillis() / WINDOW_MS + 1) * WINDOW_MS;
                    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(10))
                            .until(() -> System.currentTimeMillis() >= window + 200);
                    RunOutcome outcome = new LoadGenerator(vertx).run(run,
                            new KafkaEventSink(KafkaSinkConfig.of(bootstrap, registry)), RunListener.NONE)
                            .get(120, TimeUnit.SECONDS);
                    assertThat(outcome.completed()).as("completed requests").isEqualTo(REQUESTS);
                    // heartbeats move every partition's event time past the window end plus grace: the window closes
                    beat.scheduleAtFixedRate(() -> heartbeats.beat(new Heartbeat(target, "sim-model", Map.of(), null)),
                            0, 300, TimeUnit.MILLISECONDS);

                    String base = "http://127.0.0.1:" + aggregator.httpPort();
                    AtomicReference<JsonObject> summary = new AtomicReference<>();
                    await().atMost(Duration.ofSeconds(120)).until(() -> {
                        String body = get(base + "/api/summaries?target="
                                + URLEncoder.encode(target, StandardCharsets.UTF_8) + "&from=" + window);
                        if (!body.startsWith("[")) {
                            return false; // 503 {"error": ...} while Streams is not RUNNING (a rebalance): ask again
                        }
                        JsonArray a = new JsonArray(body);
                        summary.set(a.isEmpty() ? null : a.getJsonObject(0));
                        return a.size() == 1;
                    });
                    JsonObject w = summary.get();
                    assertThat(w.getLong("window_start_ms")).as("the run's window").isEqualTo(window);
                    JsonObject ttft = w.getJsonObject("ttft_ms");
                    assertThat(ttft.getLong("count")).as("TTFT count of the window " + w).isEqualTo(REQUESTS);
                    long histogramCount = w.getJsonObject("histograms").getJsonObject("ttft").getLong("count");
                    assertThat(histogramCount).as("TTFT histogram count of the window").isEqualTo(REQUESTS);
                    double exactP95S = ttft.getDouble("p95") / 1000.0;

                    String selector = "{target=\"" + target + "\"}";
                    await().atMost(Duration.ofSeconds(60)).until(
                            () -> prometheus.query("sum(capstream_ttft_seconds_count" + selector + ")"),
                            v -> v != null && v == REQUESTS);
                    Double promP95S = prometheus.query(
                            "histogram_quantile(0.95, sum by (le) (capstream_ttft_seconds_bucket" + selector + "))");
                    assertThat(promP95S).as("histogram_quantile answered").isNotNull();
                    int exactBucket = bucketOf(exactP95S);
                    int promBucket = bucketOf(promP95S);
                    System.out.printf("PrometheusScrapeIT: window p95 TTFT %.4f s (bucket %d), histogram_quantile %.4f s"
                            + " (bucket %d), buckets %s%n", exactP95S, exactBucket, promP95S, promBucket,
                            w.getJsonObject("histograms").getJsonObject("ttft").getJsonArray("counts"));
                    assertThat(Math.abs(exactBucket - promBucket))
                            .as("histogram_quantile %s s vs the window's exact p95 %s s (GenAI bounds %s): same or "
                                    + "adjacent bucket", promP95S, exactP95S, LatencyMeasure.BOUNDS_S)
                            .isLessThanOrEqualTo(1);
                } finally {
                    beat.shutdownNow();
                    heartbeats.close();
                    sim.close();
                }
            }
        } finally {
            vertx.close().await();
        }
    }

    /** @return the index of the GenAI bucket a value falls in (Prometheus le: v <= bound), BOUNDS_S.size() above all */
    private static int bucketOf(double seconds) {
        List<Double> bounds = LatencyMeasure.BOUNDS_S;
        for (int i = 0; i < bounds.size(); i++) {
            if (seconds <= bounds.get(i)) {
                return i;
            }
        }
        return bounds.size();
    }

    private String get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /**
     * A Prometheus server scraping one aggregator every second, with its own config and storage under a temp
     * directory, on a free port; {@link #close()} stops it by its PID.
     */
    private static final class RunningPrometheus implements AutoCloseable {
        private final Process process;
        private final String base;
        private final HttpClient http = HttpClient.newHttpClient();

        private RunningPrometheus(Process process, int port) {
            this.process = process;
            this.base = "http://127.0.0.1:" + port;
        }

        static RunningPrometheus start(Path dir, int aggregatorPort) throws IOException {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      scrape_timeout: 1s
                    scrape_configs:
                      - job_name: capstream
                        metrics_path: /metrics
                        static_configs:
                          - targets: ['127.0.0.1:%d']
                    """.formatted(aggregatorPort));
            File log = dir.resolve("prometheus.log").toFile();
            Process p = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(log).start();
            RunningPrometheus prometheus = new RunningPrometheus(p, port);
            try {
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> prometheus.status("/-/ready") == 200 || !p.isAlive());
                assertThat(p.isAlive()).as("Prometheus runs (log %s: %s)", log, p.isAlive() ? ""
                        : Files.readString(log.toPath())).isTrue();
            } catch (RuntimeException | AssertionError e) {
                prometheus.close();
                throw e;
            }
            return prometheus;
        }

        private int status(String path) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        }

        /** @return the value of an instant query's one sample, or null when it has none (or not a number) */
        Double query(String promql) throws IOException, InterruptedException {
            String body = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/query?query="
                    + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            JsonArray result = new JsonObject(body).getJsonObject("data").getJsonArray("result");
            if (result.size() != 1) {
                return null;
            }
            double v = Double.parseDouble(result.getJsonObject(0).getJsonArray("value").getString(1));
            return Double.isNaN(v) ? null : v;
        }

        /** Stops Prometheus by its PID (SIGTERM, then SIGKILL after 10 s). */
        @Override
        public void close() {
            ProcessHandle h = process.toHandle();
            h.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    h.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            }
        }
    }
}

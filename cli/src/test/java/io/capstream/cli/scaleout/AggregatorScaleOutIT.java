package io.capstream.cli.scaleout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.window.WindowTopology;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.loadgen.continuous.KafkaHeartbeatSender;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.registry.AuthRegistryStub;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code aggregate} services (AggregatorService, one JVM) with the same application id on the
 * embedded broker, events topic with 4 partitions: they share the partitions, and each answers for
 * every run and every window. The reports store has one partition (capstream.reports), so one
 * instance holds every report and the other forwards {@code /api/runs/{id}}; the summaries store's 4
 * partitions are split, so {@code /api/summaries} merges both instances' windows.
 */
class AggregatorScaleOutIT {
    private static final int RUNS = 4;
    private static final String CREDENTIALS = "scale-user:scale-pw";

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(300)
    void bothInstancesAnswerForEveryRunAndWindow() throws Exception {
        // a registry over HTTP (not mock://): 'run' only hands its events to a service that shares its registry
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
             AuthRegistryStub stub = new AuthRegistryStub(CREDENTIALS)) {
            String bs = kafka.bootstrapServers();
            String registry = stub.url();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            RegistryClientConfig d = RegistryClientConfig.defaults();
            RegistryClientConfig auth = new RegistryClientConfig(d.requestTimeout(), d.maxRetries(), d.retryBackoff(),
                    CREDENTIALS, null);
            AggregatorConfig config = AggregatorConfig.of(registry, auth, Duration.ofSeconds(2), Duration.ZERO, List.of());
            // the default application id: 'run' finds the services and waits for their report
            String appId = AggregatorGroupOption.DEFAULT_GROUP;
            try (AggregatorService a = AggregatorService.start(config,
                         StreamsSettings.defaults(appId, bs, tmp.resolve("state-a")).withStreamThreads(1),
                         new ApiConfig("127.0.0.1", 0));
                 AggregatorService b = AggregatorService.start(config,
                         StreamsSettings.defaults(appId, bs, tmp.resolve("state-b")).withStreamThreads(1),
                         new ApiConfig("127.0.0.1", 0));
                 KafkaHeartbeatSender heartbeats = KafkaHeartbeatSender.create(bs, registry, auth, Map.of(),
                         "scale-out-it")) {
                assertEquals("http://127.0.0.1:" + a.httpPort(), a.advertisedUrl().toString());
                List<AggregatorService> both = List.of(a, b);
                // settled: both RUNNING, both know both members, the summaries' partitions split between them
                await().atMost(Duration.ofSeconds(120)).until(() -> both.stream().allMatch(s ->
                        s.state() == KafkaStreams.State.RUNNING
                                && s.streams().metadataForAllStreamsClients().size() == 2
                                && s.streams().streamsMetadataForStore(WindowTopology.SUMMARIES_STORE).size() == 2
                                && s.streams().streamsMetadataForStore(AggregatorTopology.REPORTS_STORE).size() == 1));

                List<String> runIds = new ArrayList<>();
                List<JsonNode> artifacts = new ArrayList<>();
                Set<String> targets = new TreeSet<>();
                for (int k = 0; k < RUNS; k++) {
                    String runId = "scale-out-" + k;
                    Path out = tmp.resolve(runId + ".json");
                    CommandOutput run = CommandOutput.run("run", "--bootstrap-servers", bs, "--schema-registry-url",
                            registry, "--schema-registry-basic-auth", CREDENTIALS, "--requests", "4", "--concurrency",
                            "2", "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", runId, "--output",
                            out.toString());
                    assertEquals(0, run.exitCode(), run.out() + run.err());
                    assertThat(run.err()).contains("using the running aggregator (group " + appId + ")");
                    JsonNode artifact = ArtifactJson.read(out);
                    assertEquals(4, artifact.path("completed").asInt());
                    runIds.add(runId);
                    artifacts.add(artifact);
                    targets.add(artifact.path("base_url").asText()); // each run's embedded engine has its own port
                }

                // every report from both instances: one holds the reports store, the other forwards
                for (int k = 0; k < RUNS; k++) {
                    for (AggregatorService s : both) {
                        HttpResponse<String> r = get(s, "/api/runs/" + runIds.get(k));
                        assertEquals(200, r.statusCode(), r.body());
                        assertEquals(artifacts.get(k), ArtifactJson.parse(r.body()), runIds.get(k) + " from " + s.advertisedUrl());
                        HttpResponse<String> page = get(s, "/runs/" + runIds.get(k));
                        assertEquals(200, page.statusCode());
                        assertThat(page.body()).contains(runIds.get(k));
                    }
                }
                List<String> localRuns = new ArrayList<>();
                for (AggregatorService s : both) {
                    assertEquals(new TreeSet<>(runIds), field(get(s, "/api/runs").body(), "run_id"), "runs on " + s.advertisedUrl());
                    localRuns.add(get(s, "/api/runs?local=true").body());
                }
                assertThat(localRuns).as("one instance holds no report itself: " + localRuns).contains("[]");

                // close the windows on every partition, then both answer the same merged set of summaries
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    heartbeats.beat(new Heartbeat("http://scale-out-it/v1", "heartbeat", java.util.Map.of(), null));
                    return field(get(a, "/api/summaries").body(), "target").containsAll(targets);
                });
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    String fromA = get(a, "/api/summaries").body();
                    String fromB = get(b, "/api/summaries").body();
                    assertEquals(fromA, fromB);
                    Set<String> union = new TreeSet<>(keys(get(a, "/api/summaries?local=true").body()));
                    union.addAll(keys(get(b, "/api/summaries?local=true").body()));
                    assertEquals(union, keys(fromA));
                    assertEquals(keys(fromA).size(), ArtifactJson.parse(fromA).size(), "no window twice");
                });
                assertThat(field(get(b, "/api/summaries").body(), "target")).containsAll(targets);
                assertNotEquals(a.advertisedUrl(), b.advertisedUrl());
            }
        }
    }

    private HttpResponse<String> get(AggregatorService s, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(s.advertisedUrl() + path)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Set<String> field(String jsonArray, String name) throws Exception {
        Set<String> out = new TreeSet<>();
        ArtifactJson.parse(jsonArray).forEach(n -> out.add(n.path(name).asText()));
        return out;
    }

    /** @return window|target|model|bucket of each summary */
    private static Set<String> keys(String jsonArray) throws Exception {
        Set<String> out = new TreeSet<>();
        ArtifactJson.parse(jsonArray).forEach(n -> out.add(n.path("window_start_ms").asText() + "|"
                + n.path("target").asText() + "|" + n.path("model").asText() + "|" + n.path("context_bucket").asText()));
        return out;
    }
}

package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.OutageRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
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
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11, item 3, end to end: the {@code aggregate} service on an embedded Kafka while its
 * schema registry answers 503 to everything. The run's events are held, not dead-lettered;
 * {@code /ready} says why it is not ready; a hold longer than the bound replaces the stream
 * thread (exactly-once: it reads on from the last commit); once the registry answers, the run's
 * report is published complete and the service is ready again.
 */
class RegistryOutageIT {
    private static final String SCOPE = "registry-outage-it";
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    @Test
    @Timeout(240)
    void aRegistryOutageDeadLettersNothingAndTheReportArrivesOnceItAnswers() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
             OutageRegistry registry = new OutageRegistry(SCOPE)) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            RegistryClientConfig client = new RegistryClientConfig(Duration.ofSeconds(1), 3, Duration.ofMillis(50), null, null);
            AggregatorConfig base = AggregatorConfig.of(registry.url(), client, Duration.ofMinutes(1), Duration.ofSeconds(10), List.of());
            // a short hold, so that the test sees a thread replaced: 50 ms doubling to 500 ms, at most 3 s
            AggregatorConfig config = new AggregatorConfig(base.report().withRegistryRetry(
                    new RegistryRetry(Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofSeconds(3))), base.window(), base.slo());
            StreamsSettings settings = StreamsSettings.defaults("registry-outage-it", bs, tmp.resolve("state")).withStreamThreads(1);
            try (AggregatorService service = AggregatorService.start(config, settings, new ApiConfig("127.0.0.1", 0))) {
                await().atMost(Duration.ofSeconds(60)).until(() -> service.state() == KafkaStreams.State.RUNNING);
                await().atMost(Duration.ofSeconds(30)).until(() -> ready(service.httpPort()).startsWith("200 "));
                Set<String> threadsBefore = threads(service);

                registry.down(true);
                CommandOutput gen = CommandOutput.run("generate", "--bootstrap-servers", bs, "--schema-registry-url",
                        "mock://" + SCOPE, "--requests", "4", "--concurrency", "2", "--ctx-tokens", "256",
                        "--max-tokens", "4", "--run-id", "outage-run", "--server-metrics", "off");
                assertEquals(0, gen.exitCode(), gen.out() + gen.err());
                assertThat(gen.out()).contains("6 events, 6 delivered, 0 undelivered");

                await().atMost(Duration.ofSeconds(60)).until(() -> ready(service.httpPort()).startsWith("503 "));
                JsonNode notReady = new ObjectMapper().readTree(ready(service.httpPort()).substring(4));
                assertEquals(false, notReady.path("ready").asBoolean(true));
                assertThat(notReady.path("reason").asText()).as(notReady.toString())
                        .startsWith("schema registry unreachable: schema registry GET "
                                + registry.url() + "/schemas/ids/");
                // held longer than the 3 s bound: the stream thread is replaced, nothing is dead-lettered
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    Set<String> now = threads(service);
                    return !now.isEmpty() && !now.equals(threadsBefore);
                });
                assertThat(Set.of(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING)).as("replaced, not stopped: " + service.state())
                        .contains(service.state());

                registry.down(false);
                List<BenchmarkReport> reports = new ArrayList<>();
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    reports.clear();
                    TopicHistory.read(Map.of("bootstrap.servers", bs), Topics.REPORTS, (k, v) -> {
                        if ("outage-run".equals(k) && v != null) {
                            reports.add(SpecificAvroSerde.forValue(BenchmarkReport.class, "mock://" + SCOPE)
                                    .deserializer().deserialize(Topics.REPORTS, v));
                        }
                    });
                    return !reports.isEmpty();
                });
                assertEquals(1, reports.size(), "one report");
                assertEquals(4, reports.get(0).getCompleted(), "every request event was processed");
                assertTrue(reports.get(0).getProvenance().getComplete());
                assertEquals(0, TopicHistory.read(Map.of("bootstrap.servers", bs), Topics.EVENTS_DLQ, (k, v) -> { }),
                        "nothing was dead-lettered");
                await().atMost(Duration.ofSeconds(30)).until(() -> ready(service.httpPort()).equals("200 {\"ready\":true}"));
                assertTrue(registry.refused() > 1, "the held record was retried: " + registry.refused());
            }
        } finally {
            MockSchemaRegistry.dropScope(SCOPE);
        }
    }

    private static Set<String> threads(AggregatorService service) {
        return service.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }

    private String ready(int port) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (Exception e) {
            return "error " + e;
        }
    }
}

package io.capstream.cli.report;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 against a real broker (default {@code message.max.bytes}, about 1 MiB): the long-running
 * aggregator ({@code capstream aggregate}'s service) stays RUNNING after a RunStarted claiming
 * 3,000,000 requests reaches the incomplete-run deadline (it used to publish a 40 MB report and stop
 * for good), dead-letters it, and then publishes a 20,000-request report (~7 MB of artifact JSON)
 * whole: the report waiter and {@code GET /api/runs/{id}} give the same complete artifact.
 */
class OversizedReportIT {
    private static final int N = 20_000;
    // long enough that a loaded 2-core machine never stalls this long between two events of the big run (6 s did once
    // with a build running beside it: the run was published incomplete)
    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(240)
    void poisonClaimsAreDeadLetteredAndABigReportArrivesWhole() throws Exception {
        String registry = "mock://oversized-it-" + UUID.randomUUID();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), 2);
            AggregatorConfig base = AggregatorConfig.of(registry, Duration.ofMinutes(1), Duration.ofSeconds(10), List.of());
            AggregatorConfig config = new AggregatorConfig(base.report().withIncompleteDeadline(DEADLINE),
                    base.window(), base.slo());
            StreamsSettings settings = StreamsSettings.defaults("oversized-it", bs, stateDir).withStreamThreads(1);
            Map<String, byte[]> dlq = new ConcurrentHashMap<>();
            try (AggregatorService service = AggregatorService.start(config, settings, new ApiConfig("127.0.0.1", 0));
                 ReportWaiter waiter = ReportWaiter.forReports(new KafkaClientProperties(bs, Map.of()), registry,
                         RegistryClientConfig.defaults());
                 KafkaProducer<String, RunEvent> producer = producer(bs, registry);
                 DlqReader dlqReader = new DlqReader(bs, dlq)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> service.state() == KafkaStreams.State.RUNNING);

                // 1. the 3,000,000-request claim: dead-lettered, and Streams survives the deadline
                RunEvent huge = envelope("it-huge", "it-huge-start", started(0));
                ((RunStarted) huge.getPayload()).setRequests(3_000_000);
                producer.send(new ProducerRecord<>(Topics.EVENTS, "it-huge", huge)).get(30, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(30)).until(() -> dlq.containsKey("it-huge"));
                await().during(DEADLINE.plusSeconds(3)).atMost(DEADLINE.plusSeconds(10))
                        .until(() -> service.state() == KafkaStreams.State.RUNNING);

                // 2. a 20,000-request run: its report is far larger than a record may be, and arrives whole
                String runId = "it-big-" + UUID.randomUUID();
                CompletableFuture<BenchmarkReport> pending = waiter.expect(runId);
                List<RunEvent> run = run(runId, N);
                for (RunEvent e : run) {
                    producer.send(new ProducerRecord<>(Topics.EVENTS, runId, e));
                }
                producer.flush();
                BenchmarkReport report = pending.get(120, TimeUnit.SECONDS);
                String text = report.getArtifactJson();
                assertTrue(report.getProvenance().getComplete(), report.getProvenance().toString());
                assertTrue(text.length() > 4 * 1024 * 1024, "artifact of " + text.length() + " chars");
                JsonNode a = ArtifactJson.parse(text);
                assertEquals(N, a.path("completed").asInt());
                assertEquals(N, a.path("request_timings").size());
                assertEquals(N - 1, a.path("request_timings").get(N - 1).path("request_index").asInt());
                assertEquals(ArtifactJson.write(a), text);
                assertTrue(report.getProvenance().getComplete());

                // 3. the HTTP API serves the same bytes
                HttpClient http = HttpClient.newHttpClient();
                URI uri = URI.create("http://127.0.0.1:" + service.httpPort() + "/api/runs/" + runId);
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding())
                                .statusCode() == 200);
                HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, got.statusCode());
                assertEquals(text, new String(got.body(), StandardCharsets.UTF_8));
                assertEquals(KafkaStreams.State.RUNNING, service.state());
            }
        }
    }

    /** Follows the dead-letter topic from the beginning, keeping the last value per key. */
    private static final class DlqReader implements AutoCloseable {
        private final KafkaConsumer<String, byte[]> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        DlqReader(String bootstrap, Map<String, byte[]> into) {
            consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap, "isolation.level", "read_committed"),
                    new StringDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> parts = consumer.partitionsFor(Topics.EVENTS_DLQ, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(Topics.EVENTS_DLQ, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            thread = new Thread(() -> {
                try {
                    while (running) {
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            if (r.key() != null) {
                                into.put(r.key(), r.value() == null ? new byte[0] : r.value());
                            }
                        }
                    }
                } catch (org.apache.kafka.common.errors.WakeupException e) {
                    // closing
                } finally {
                    consumer.close(Duration.ofSeconds(5));
                }
            }, "oversized-it-dlq");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            consumer.wakeup();
            thread.join(10_000);
        }
    }

    private static KafkaProducer<String, RunEvent> producer(String bootstrap, String registry) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, "20"),
                new StringSerializer(), SpecificAvroSerde.forValue(RunEvent.class, registry).serializer());
    }

    private static RunEvent envelope(String runId, String eventId, Object payload) {
        return RunEvent.newBuilder().setRunId(runId).setEventId(eventId).setWorkerId("w0")
                .setEmittedAtMs(1_780_000_000_000L).setPayload(payload).build();
    }

    private static RunStarted started(int n) {
        return RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel("it-model").setEngine("vllm")
                .setRequests(n).setConcurrency(500).setMaxTokens(4).setContextTokens(64)
                .setMaxContextTokens(32768).setThinkingMode("disabled")
                .setPlannedContextTokens(new ArrayList<>(Collections.nCopies(n, 64)))
                .setStartedAt("2026-12-01T12:00:00Z").setStartedAtEpochMs(1_796_126_400_000L)
                .setOrigin("live")
                .build();
    }

    /** RunStarted, n completed requests with distinct times (TTFT (i+1) µs + i ns), RunFinished. */
    private static List<RunEvent> run(String runId, int n) {
        List<RunEvent> out = new ArrayList<>(n + 2);
        out.add(envelope(runId, runId + "-start", started(n)));
        for (int i = 0; i < n; i++) {
            long ttft = (i + 1) * 1_000L + i;
            out.add(envelope(runId, runId + "-req-" + i, RequestCompleted.newBuilder()
                    .setRequestIndex(i).setPlannedContextTokens(64)
                    .setTtfoNs(ttft).setTtftNs(ttft).setE2eNs(ttft + 3_000_000L + 7L * i)
                    .setPromptTokens(64L).setCompletionTokens(4L).setOutputTokenSource("usage")
                    .setContentChunks(4).setReasoningChunks(0)
                    .build()));
        }
        out.add(envelope(runId, runId + "-finish", RunFinished.newBuilder()
                .setWallClockNs(9_000_000_000L).setStartedAt("2026-12-01T12:00:00Z")
                .setFinishedAt("2026-12-01T12:00:09Z").setStartedAtEpochMs(1_796_126_400_000L)
                .setFinishedAtEpochMs(1_796_126_409_000L).setRequestsSent(n)
                .build()));
        return out;
    }
}

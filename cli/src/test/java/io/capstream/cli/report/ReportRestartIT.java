package io.capstream.cli.report;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.aggregator.importer.ArtifactImporter;
import io.capstream.aggregator.importer.ImportPlan;
import io.capstream.aggregator.report.ReportTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops the report application half-way through a run and restarts it (same application id and
 * state directory): the report equals the one of an uninterrupted run of the same events.
 */
class ReportRestartIT {
    private static final String APP_ID = "capstream-restart-it";
    private static final CloseOptions LEAVE = CloseOptions.groupMembershipOperation(
            CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(Duration.ofSeconds(30));

    @TempDir
    Path stateDir;

    @Test
    void restartHalfWayGivesTheSameReport() throws Exception {
        String registry = "mock://restart-it-" + UUID.randomUUID();
        ImportPlan plan = ArtifactImporter.plan(SharedDir.seed());
        List<RunEvent> uninterrupted = withRunId(plan.events(), "restart-it-baseline");
        List<RunEvent> interrupted = withRunId(plan.events(), "restart-it-restarted");
        assertTrue(interrupted.size() >= 4, "seed has RunStarted, rows, RunFinished");

        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bootstrap, Map.of(), 3);
            ReportTopologyConfig config = ReportTopologyConfig.defaults(registry);
            StreamsSettings settings = StreamsSettings.defaults(APP_ID, bootstrap, stateDir);
            try (ReportWaiter waiter = new ReportWaiter(Map.of("bootstrap.servers", bootstrap), Topics.REPORTS,
                    SpecificAvroSerde.forValue(BenchmarkReport.class, registry).deserializer());
                 KafkaProducer<String, RunEvent> producer = producer(bootstrap, registry)) {
                CompletableFuture<BenchmarkReport> baseline = waiter.expect("restart-it-baseline");
                CompletableFuture<BenchmarkReport> restarted = waiter.expect("restart-it-restarted");

                KafkaStreams first = start(config, settings);
                send(producer, uninterrupted);
                BenchmarkReport expected = baseline.get(60, TimeUnit.SECONDS);

                int half = interrupted.size() / 2;
                send(producer, interrupted.subList(0, half));
                awaitCommitted(bootstrap);
                assertTrue(!restarted.isDone(), "no report before the rest of the run");
                first.close(LEAVE);

                KafkaStreams second = start(config, settings);
                try {
                    send(producer, interrupted.subList(half, interrupted.size()));
                    BenchmarkReport actual = restarted.get(60, TimeUnit.SECONDS);
                    assertSameReport(expected, actual);
                } finally {
                    second.close(LEAVE);
                }
            }
        }
    }

    private static void assertSameReport(BenchmarkReport expected, BenchmarkReport actual) throws Exception {
        assertEquals("restart-it-restarted", actual.getRunId());
        assertEquals(expected.getMetrics(), actual.getMetrics());
        assertEquals(expected.getRequestTimings(), actual.getRequestTimings());
        assertEquals(expected.getCompleted(), actual.getCompleted());
        assertEquals(expected.getFailed(), actual.getFailed());
        assertEquals(expected.getFailures(), actual.getFailures());
        assertEquals(expected.getWallClockMs(), actual.getWallClockMs());
        assertEquals(0, actual.getProvenance().getDuplicateEvents());
        assertTrue(actual.getProvenance().getComplete());
        assertEquals(comparable(expected), comparable(actual));
    }

    /** The artifact without run_id and the capstream key (which holds generated-at and other provenance). */
    private static JsonNode comparable(BenchmarkReport r) throws Exception {
        ObjectNode tree = (ObjectNode) ArtifactJson.parse(r.getArtifactJson());
        tree.remove("run_id");
        tree.remove("capstream");
        return tree;
    }

    private static List<RunEvent> withRunId(List<RunEvent> events, String runId) {
        List<RunEvent> out = new ArrayList<>();
        for (RunEvent e : events) {
            RunEvent c = RunEvent.newBuilder(e).build();
            c.setRunId(runId);
            c.setEventId(runId + "|" + e.getEventId());
            out.add(c);
        }
        return out;
    }

    private static KafkaStreams start(ReportTopologyConfig config, StreamsSettings settings) {
        KafkaStreams streams = new KafkaStreams(ReportTopology.build(config), settings.toProperties());
        streams.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        return streams;
    }

    private static KafkaProducer<String, RunEvent> producer(String bootstrap, String registry) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"),
                new StringSerializer(), SpecificAvroSerde.forValue(RunEvent.class, registry).serializer());
    }

    private static void send(KafkaProducer<String, RunEvent> producer, List<RunEvent> events) throws Exception {
        for (RunEvent e : events) {
            producer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(), e)).get();
        }
    }

    /** Waits until the application has committed every event produced so far. */
    private static void awaitCommitted(String bootstrap) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                var parts = admin.describeTopics(List.of(Topics.EVENTS)).allTopicNames().get().get(Topics.EVENTS)
                        .partitions();
                Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> specs = new java.util.HashMap<>();
                parts.forEach(p -> specs.put(new TopicPartition(Topics.EVENTS, p.partition()),
                        org.apache.kafka.clients.admin.OffsetSpec.latest()));
                var ends = admin.listOffsets(specs).all().get();
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(APP_ID)
                        .partitionsToOffsetAndMetadata().get();
                return ends.entrySet().stream().allMatch(e -> {
                    OffsetAndMetadata c = committed.get(e.getKey());
                    return e.getValue().offset() == 0 || (c != null && c.offset() >= e.getValue().offset());
                });
            });
        }
    }
}

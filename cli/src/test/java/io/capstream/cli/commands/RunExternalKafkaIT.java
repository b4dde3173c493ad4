package io.capstream.cli.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} and {@code generate} with {@code --bootstrap-servers} (a broker the commands do not own). */
class RunExternalKafkaIT {
    private static EmbeddedKafka kafka;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static long eventsInTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            var parts = admin.describeTopics(List.of(Topics.EVENTS)).allTopicNames().get().get(Topics.EVENTS).partitions();
            Map<TopicPartition, OffsetSpec> spec = new java.util.HashMap<>();
            parts.forEach(p -> spec.put(new TopicPartition(Topics.EVENTS, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(spec).all().get().values().stream().mapToLong(i -> i.offset()).sum();
        }
    }

    @Test
    @Timeout(180)
    void runsTwiceOnASharedBrokerAndGenerateOnlySends() throws Exception {
        String bs = kafka.bootstrapServers();
        Path first = tmp.resolve("first.json");
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--requests", "6", "--concurrency", "3",
                "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", "ext-1", "--output", first.toString()));
        // the second in-process aggregator starts at the end of capstream.events: its report has only its own run
        Path second = tmp.resolve("second.json");
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--requests", "4", "--concurrency", "2",
                "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", "ext-2", "--output", second.toString()));
        JsonNode a = ArtifactJson.read(first);
        JsonNode b = ArtifactJson.read(second);
        assertEquals(6, a.path("completed").asInt());
        assertEquals(4, b.path("completed").asInt());
        assertEquals("ext-2", b.path("run_id").asText());
        long before = eventsInTopic();
        java.io.ByteArrayOutputStream genOut = new java.io.ByteArrayOutputStream();
        java.io.PrintStream oldOut = System.out;
        int genCode;
        try {
            System.setOut(new java.io.PrintStream(genOut, true, java.nio.charset.StandardCharsets.UTF_8));
            genCode = CapstreamMain.execute("generate", "--bootstrap-servers", bs, "--schema-registry-url",
                    "mock://capstream", "--requests", "3", "--ctx-tokens", "256", "--max-tokens", "4", "--run-id", "gen-1",
                    "--server-metrics", "off"); // the sim's scrapes would add heartbeat events to the count
        } finally {
            System.setOut(oldOut);
        }
        assertEquals(0, genCode);
        // says what was delivered (it used to say "events sent to Kafka" whatever happened to them)
        assertEquals("run gen-1: 3 completed, 0 failed of 3; 5 events, 5 delivered, 0 undelivered (Kafka " + bs + ")",
                genOut.toString(java.nio.charset.StandardCharsets.UTF_8).strip());
        assertEquals(before + 5, eventsInTopic(), "RunStarted + 3 requests + RunFinished");
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--no-aggregator", "--requests", "2",
                "--ctx-tokens", "256", "--max-tokens", "4", "--run-id", "noagg-1", "--server-metrics", "off"));
        assertEquals(before + 9, eventsInTopic());
    }
}

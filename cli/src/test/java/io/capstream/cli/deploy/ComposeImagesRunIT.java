package io.capstream.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * End to end against the compose file's own images (tags read from {@code docker-compose.yml}, so
 * they cannot drift): {@code apache/kafka} and {@code confluentinc/cp-schema-registry} containers,
 * then {@code capstream run --bootstrap-servers ... --schema-registry-url ...} against the
 * in-process simulated engine, and the report file is checked. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class ComposeImagesRunIT {
    private static final ComposeFile COMPOSE = ComposeFile.load();
    private static final Network NETWORK = Network.newNetwork();
    private static final String KAFKA_INTERNAL = "kafka:19092";

    @Container
    static final KafkaContainer KAFKA = new KafkaContainer(DockerImageName.parse(COMPOSE.image("kafka")))
            .withNetwork(NETWORK)
            .withListener(KAFKA_INTERNAL);

    @Container
    static final GenericContainer<?> REGISTRY = new GenericContainer<>(DockerImageName.parse(COMPOSE.image("schema-registry")))
            .withNetwork(NETWORK)
            .withExposedPorts(8081)
            .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
            .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
            .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://" + KAFKA_INTERNAL)
            .dependsOn(KAFKA)
            .waitingFor(Wait.forHttp("/subjects").forStatusCode(200).withStartupTimeout(Duration.ofSeconds(120)));

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void runAgainstKafkaAndSchemaRegistryContainersWritesTheReport() throws Exception {
        String bootstrap = KAFKA.getBootstrapServers();
        String registry = "http://" + REGISTRY.getHost() + ":" + REGISTRY.getMappedPort(8081);
        TopicSetup.ensureTopics(bootstrap, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
        Path report = dir.resolve("report.json");

        int code = CapstreamMain.execute("run", "--bootstrap-servers", bootstrap, "--schema-registry-url", registry,
                "--requests", "20", "--output", report.toString());

        assertEquals(0, code, "capstream run exit code");
        assertTrue(Files.isRegularFile(report), "report written");
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("anvil-serving.benchmark/v1", json.path("schema").asText());
        assertEquals(20, json.path("requests").asInt());
        assertEquals(20, json.path("completed").asInt() + json.path("failed").asInt());
        assertEquals(20, json.path("request_timings").size());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Set<String> topics = admin.listTopics().names().get();
            assertThat(topics).containsAll(Set.of(Topics.EVENTS, Topics.REPORTS));
        }
        // The events were registered in the real registry (Confluent wire format).
        String subjects = new String(new java.net.URL(registry + "/subjects").openStream().readAllBytes());
        assertThat(subjects).contains(Topics.EVENTS);
    }
}

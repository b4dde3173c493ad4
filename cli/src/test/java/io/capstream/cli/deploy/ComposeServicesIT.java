package io.capstream.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.stack.ApicurioConfig;
import io.capstream.cli.stack.ApicurioRegistry;
import io.capstream.cli.up.Ports;
import io.capstream.schemas.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose file's capstream services without Docker: {@code sim}, {@code aggregator} and
 * {@code generator} are started as separate JVMs with exactly the command and the environment the
 * compose file gives them (only container addresses are mapped to loopback ports: {@code kafka:9092}
 * to an embedded broker, {@code schema-registry:8081} to an Apicurio Registry child process,
 * {@code sim:8000} to a free port). Proves that the {@code CAPSTREAM_*} variables alone configure
 * the services: the generator's first run reaches the aggregator, whose report lands on
 * {@code capstream.reports} and whose {@code /ready} turns 200.
 */
class ComposeServicesIT {
    private static final List<String> JAVA_PREFIX = ComposeFileTest.JAVA_PREFIX;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    @Timeout(240)
    void composeServicesConfiguredOnlyByTheirEnvironmentProduceAReport() throws Exception {
        long t0 = System.nanoTime();
        ComposeFile compose = ComposeFile.load();
        // the registry (a child JVM, ~10 s) starts while the broker starts in-process
        java.util.concurrent.CompletableFuture<ApicurioRegistry> registryStart =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> ApicurioRegistry.start(ApicurioConfig.defaults()));
        resources.add(() -> registryStart.join().close());
        EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        resources.add(kafka);
        TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), 3);
        ApicurioRegistry registry = registryStart.join();
        System.err.printf("ComposeServicesIT: broker and registry up after %.1f s%n", (System.nanoTime() - t0) / 1e9);
        int simPort = Ports.freePort();
        int httpPort = Ports.freePort();

        // container address -> loopback address
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("http://schema-registry:8081", registry.ccompatUrl());
        addresses.put("kafka:9092", kafka.bootstrapServers());
        addresses.put("sim:8000", "127.0.0.1:" + simPort);
        Map<String, Map<String, String>> overrides = Map.of(
                "sim", Map.of("CAPSTREAM_HOST", "127.0.0.1", "CAPSTREAM_PORT", String.valueOf(simPort)),
                "aggregator", Map.of("CAPSTREAM_HTTP_HOST", "127.0.0.1", "CAPSTREAM_HTTP_PORT", String.valueOf(httpPort),
                        "CAPSTREAM_STATE_DIR", dir.resolve("state").toString()),
                // as a user's .env would: a short run
                "generator", Map.of("CAPSTREAM_REQUESTS", "6", "CAPSTREAM_CONCURRENCY", "3"));

        for (String service : List.of("sim", "aggregator", "generator")) {
            JsonNode svc = compose.services().get(service);
            Map<String, String> env = new LinkedHashMap<>();
            ComposeFile.environment(svc).forEach((k, v) -> {
                String value = v;
                for (Map.Entry<String, String> a : addresses.entrySet()) {
                    value = value.replace(a.getKey(), a.getValue());
                }
                env.put(k, value);
            });
            env.putAll(overrides.get(service));
            List<String> cmd = ComposeFile.command(svc);
            List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.capstream.cli.CapstreamMain"));
            argv.addAll(cmd.subList(JAVA_PREFIX.size(), cmd.size()));
            ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectOutput(dir.resolve(service + ".log").toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("CAPSTREAM_"));
            pb.environment().putAll(env);
            processes.add(pb.start());
        }

        HttpClient http = HttpClient.newHttpClient();
        Set<String> reportKeys = ConcurrentHashMap.newKeySet();
        Map<String, Object> consumerProps = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(consumer.partitionsFor(Topics.REPORTS).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList());
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
                processes.forEach(p -> assertTrue(p.isAlive(), () -> "a service exited: " + logs()));
                consumer.poll(Duration.ofMillis(200)).forEach(r -> reportKeys.add(r.key()));
                return !reportKeys.isEmpty();
            });
        }
        System.err.printf("ComposeServicesIT: report on %s after %.1f s%n", Topics.REPORTS, (System.nanoTime() - t0) / 1e9);
        assertThat(reportKeys.iterator().next()).as(reportKeys.toString()).startsWith("benchmark-");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/ready")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
        HttpResponse<String> runs = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/runs"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, runs.statusCode());
        assertThat(runs.body()).contains(reportKeys.iterator().next());
    }

    private String logs() {
        StringBuilder sb = new StringBuilder();
        for (String s : List.of("sim", "aggregator", "generator")) {
            try {
                List<String> lines = Files.readAllLines(dir.resolve(s + ".log"));
                sb.append("\n--- ").append(s).append(" ---\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
            } catch (Exception e) {
                sb.append("\n--- ").append(s).append(": no log");
            }
        }
        return sb.toString();
    }
}

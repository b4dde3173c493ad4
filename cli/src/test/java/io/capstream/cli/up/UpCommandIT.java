package io.capstream.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream up} as a separate JVM: it prints the ready line with the flags, the broker has
 * every capstream topic, the Apicurio child answers the Confluent API, and SIGTERM to the parent
 * stops both with no process left behind.
 */
class UpCommandIT {
    @TempDir
    Path dir;

    private Process up;
    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void stopLeftovers() {
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    @Timeout(150)
    void upServesKafkaAndRegistryAndStopsCleanlyOnSigterm() throws Exception {
        int kafkaPort = Ports.freePort();
        int registryPort = Ports.freePort();
        int simPort = Ports.freePort();
        Path err = dir.resolve("up.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        up = new ProcessBuilder(java, "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream", "-cp",
                System.getProperty("java.class.path"), "io.capstream.cli.CapstreamMain", "up",
                "--kafka-port", String.valueOf(kafkaPort), "--registry-port", String.valueOf(registryPort),
                "--with-sim", "--sim-port", String.valueOf(simPort))
                .redirectError(err.toFile())
                .start();
        started.add(up.toHandle());
        List<String> out = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.add(line);
                }
            } catch (Exception e) {
                // process gone
            }
        }, "up-stdout");
        reader.setDaemon(true);
        reader.start();

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> out.stream().anyMatch(l -> l.startsWith(UpBanner.READY_PREFIX)) || !up.isAlive());
        assertTrue(up.isAlive(), () -> "capstream up exited: " + read(err));
        String bootstrap = "127.0.0.1:" + kafkaPort;
        String registry = "http://127.0.0.1:" + registryPort + "/apis/ccompat/v7";
        String simUrl = "http://127.0.0.1:" + simPort + "/v1";
        assertEquals(UpBanner.lines(bootstrap, registry, simUrl), out.subList(0, 4));

        List<ProcessHandle> children = up.toHandle().descendants().toList();
        started.addAll(children);
        assertThat(children).as("the registry runs as a child process").isNotEmpty();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            assertThat(topics).containsAll(Set.of(Topics.EVENTS, Topics.REPORTS, Topics.SUMMARIES, Topics.ALERTS,
                    Topics.EVENTS_DLQ));
        }
        HttpResponse<String> subjects = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(registry + "/subjects")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, subjects.statusCode());
        assertEquals("[]", subjects.body().strip());
        HttpResponse<String> models = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(simUrl + "/models")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, models.statusCode());
        assertThat(models.body()).contains("capstream-sim");

        up.destroy(); // SIGTERM
        assertTrue(up.waitFor(60, TimeUnit.SECONDS), "capstream up stops within 60 s of SIGTERM");
        for (ProcessHandle child : children) {
            await().atMost(Duration.ofSeconds(20)).until(() -> !child.isAlive());
        }
        assertThat(read(err)).contains("capstream up: stopped");
        assertTrue(Ports.isFree(kafkaPort) && Ports.isFree(registryPort) && Ports.isFree(simPort), "ports released");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "(no log: " + e + ")";
        }
    }
}

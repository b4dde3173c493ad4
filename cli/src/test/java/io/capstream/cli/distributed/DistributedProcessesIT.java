package io.capstream.cli.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.commands.CliRun;
import io.capstream.cli.up.Ports;
import io.capstream.cli.up.UpBanner;
import io.capstream.schemas.artifact.ArtifactJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed set-up as users run it, every part its own process on this machine: {@code capstream up
 * --with-sim} (broker, Apicurio registry, sim), three {@code capstream worker}s and two {@code capstream
 * aggregate}s with one application id. A 3,000-request {@code run --workers 3} gives one complete report
 * equal in counts to a one-process run, each worker sent a third, both aggregators answer
 * {@code /api/runs/{id}}; then a worker killed with SIGKILL after it took its share of a run leaves exactly
 * that share's indices missing from the incomplete report the aggregators publish after their deadline.
 */
class DistributedProcessesIT {
    private static final String APP_ID = "capstream-distributed-processes-it";
    private static final Pattern SHARE_TAKEN = Pattern.compile("run dist-kill share (\\d)/3: ");

    @TempDir
    Path dir;

    private final List<Child> children = new ArrayList<>();

    /** A child JVM running one capstream command, its stdout and stderr in one log file. */
    private record Child(String name, Process process, Path log) {
        String text() {
            try {
                return Files.readString(log);
            } catch (java.io.IOException e) {
                return "(no log: " + e + ")";
            }
        }
    }

    @AfterEach
    void stopChildren() throws InterruptedException {
        for (Child c : children) {
            c.process().toHandle().descendants().forEach(ProcessHandle::destroy);
            c.process().destroy();
        }
        for (Child c : children) {
            if (!c.process().waitFor(30, TimeUnit.SECONDS)) {
                c.process().toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                c.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private Child start(String name, String... args) throws java.io.IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream",
                "-cp", System.getProperty("java.class.path"), "io.capstream.cli.CapstreamMain"));
        cmd.addAll(List.of(args));
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Child c = new Child(name, p, log);
        children.add(c);
        return c;
    }

    private static void awaitLine(Child c, String text, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(200))
                .until(() -> c.text().contains(text) || !c.process().isAlive());
        assertThat(c.text()).as(() -> c.name() + " exited or did not print '" + text + "':\n" + c.text()).contains(text);
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Timeout(600)
    void threeWorkerProcessesTwoAggregatorsAndAWorkerKilledMidRun() throws Exception {
        int kafkaPort = Ports.freePort();
        int registryPort = Ports.freePort();
        int simPort = Ports.freePort();
        Child up = start("up", "up", "--kafka-port", Integer.toString(kafkaPort), "--registry-port",
                Integer.toString(registryPort), "--with-sim", "--sim-port", Integer.toString(simPort));
        awaitLine(up, UpBanner.READY_PREFIX, Duration.ofSeconds(180));
        String bs = "127.0.0.1:" + kafkaPort;
        String registry = "http://127.0.0.1:" + registryPort + "/apis/ccompat/v7";
        String sim = "http://127.0.0.1:" + simPort + "/v1";

        int[] apiPorts = {Ports.freePort(), Ports.freePort()};
        List<Child> aggregators = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            aggregators.add(start("aggregate-" + i, "aggregate", "--bootstrap-servers", bs, "--schema-registry-url",
                    registry, "--application-id", APP_ID, "--state-dir", dir.resolve("state-" + i).toString(),
                    "--http-port", Integer.toString(apiPorts[i]), "--incomplete-deadline", "20s", "--stream-threads", "1"));
        }
        List<Child> workers = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            workers.add(start("worker-" + i, "worker", "--bootstrap-servers", bs, "--schema-registry-url", registry,
                    "--worker-id", "w" + i));
        }
        for (Child a : aggregators) {
            awaitLine(a, "live dashboard on", Duration.ofSeconds(180));
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bs))) {
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() ->
                    admin.describeConsumerGroups(List.of(WorkerService.GROUP)).all().get()
                            .get(WorkerService.GROUP).members().size() == 3
                    && admin.describeConsumerGroups(List.of(APP_ID)).all().get().get(APP_ID).members().size() == 2);
            // static members (a restart after kill -9 takes the dead member's place at once): each instance's id is
            // the one kept in its state directory, with Kafka Streams' thread index appended
            List<String> instanceIds = admin.describeConsumerGroups(List.of(APP_ID)).all().get().get(APP_ID).members()
                    .stream().map(m -> m.groupInstanceId().orElse("(dynamic)")).sorted().toList();
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                kept.add(Files.readString(dir.resolve("state-" + i).resolve(APP_ID)
                        .resolve("capstream-group-instance-id")).trim() + "-1");
            }
            assertThat(instanceIds).as("group.instance.id of the two aggregates' members")
                    .containsExactlyInAnyOrderElementsOf(kept);
        }
        List<String> common = List.of("--bootstrap-servers", bs, "--schema-registry-url", registry, "--aggregator-group",
                APP_ID, "--base-url", sim, "--model", "capstream-sim", "--ctx-tokens", "256", "--shared-prefix-tokens",
                "0", "--max-tokens", "4", "--client-warmup", "0", "--server-metrics", "off");

        // one process, then three workers: the same workload
        Path one = dir.resolve("one.json");
        CliRun r1 = CliRun.run(args(common, "run", "--requests", "3000", "--concurrency", "30", "--run-id", "one-3000",
                "--output", one.toString()));
        assertEquals(0, r1.code(), r1.err());
        Path dist = dir.resolve("dist.json");
        CliRun r2 = CliRun.run(args(common, "run", "--workers", "3", "--requests", "3000", "--concurrency", "30",
                "--run-id", "dist-3000", "--output", dist.toString()));
        assertEquals(0, r2.code(), r2.err() + logs(workers));
        JsonNode a1 = ArtifactJson.read(one);
        JsonNode a2 = ArtifactJson.read(dist);
        for (String key : List.of("requests", "completed", "failed", "concurrency")) {
            assertEquals(a1.path(key).asInt(), a2.path(key).asInt(), key);
        }
        assertEquals(3000, a2.path("completed").asInt());
        assertEquals(3000, a2.path("request_timings").size());
        assertTrue(a2.path("capstream").path("complete").asBoolean());
        JsonNode w = a2.path("capstream").path("workers");
        assertEquals(3, w.size(), w.toString());
        for (int i = 1; i <= 3; i++) {
            assertEquals(1000, w.path("w" + i).path("requests").asInt(), w.toString());
            assertEquals(3, w.path("w" + i).path("shares").asInt());
        }
        // any run from either aggregator (Kafka Streams interactive queries, forwarded to the owner)
        for (int port : apiPorts) {
            for (String run : List.of("dist-3000", "one-3000")) {
                HttpResponse<String> r = get("http://127.0.0.1:" + port + "/api/runs/" + run);
                assertEquals(200, r.statusCode(), port + " " + run + ": " + r.body());
                assertEquals(3000, ArtifactJson.parse(r.body()).path("completed").asInt());
            }
        }

        // SIGKILL of a worker right after it took its share (before the shared start instant)
        Child victim = workers.get(2);
        Path kill = dir.resolve("kill.json");
        CompletableFuture<CliRun> killRun = CompletableFuture.supplyAsync(() -> CliRun.run(args(common, "run",
                "--workers", "3", "--requests", "300", "--concurrency", "6", "--run-id", "dist-kill",
                "--report-timeout", "120", "--output", kill.toString())));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                .until(() -> SHARE_TAKEN.matcher(victim.text()).find() || killRun.isDone());
        Matcher m = SHARE_TAKEN.matcher(victim.text());
        assertTrue(m.find(), "the victim took a share:\n" + victim.text());
        int share = Integer.parseInt(m.group(1));
        victim.process().destroyForcibly(); // SIGKILL
        assertTrue(victim.process().waitFor(10, TimeUnit.SECONDS));
        assertEquals(137, victim.process().exitValue(), "killed by SIGKILL");
        CliRun r3 = killRun.get(240, TimeUnit.SECONDS);
        assertEquals(1, r3.code(), r3.err());
        assertThat(r3.err()).contains("the report is incomplete: 100 request(s) without an event");
        assertThat(r3.err()).contains("and only 2 workers' RunFinished arrived (w1, w2)");
        JsonNode a3 = ArtifactJson.read(kill);
        assertEquals(200, a3.path("completed").asInt());
        JsonNode missing = a3.path("capstream").path("missing_request_indices");
        assertEquals(100, missing.size());
        for (JsonNode i : missing) {
            assertEquals(share, i.asInt() % 3, "only the killed worker's share is missing: " + missing);
        }
        JsonNode kw = a3.path("capstream").path("workers");
        assertEquals(2, kw.size(), "the killed worker sent nothing: " + kw);
        assertTrue(!kw.has("w3"), kw.toString());
    }

    private static String[] args(List<String> common, String... first) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(common);
        return all.toArray(String[]::new);
    }

    private static String logs(List<Child> cs) {
        StringBuilder b = new StringBuilder();
        for (Child c : cs) {
            b.append("\n--- ").append(c.name()).append(":\n").append(c.text());
        }
        return b.toString();
    }
}

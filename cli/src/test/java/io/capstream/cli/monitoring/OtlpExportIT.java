package io.capstream.cli.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.cli.commands.CliRun;
import io.capstream.cli.up.Ports;
import io.capstream.cli.up.UpBanner;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aggregate --otlp-endpoint} as users run it: {@code capstream up} (embedded broker, Apicurio registry) and
 * {@code capstream aggregate} as child processes, the aggregate exporting to a local OTLP/HTTP receiver (a JDK HTTP
 * server collecting {@code POST /v1/metrics}, decoded with {@code opentelemetry-proto}); a short {@code run} against the
 * built-in sim. Within 75 s of the run's end a post names {@code gen_ai.client.inference.time_to_first_chunk} and
 * {@code gen_ai.client.inference.duration} with one value per completed request; the API key given in
 * {@code OTEL_EXPORTER_OTLP_HEADERS} is sent and masked in the banner; SIGTERM sends a last post and exits 143.
 */
class OtlpExportIT {
    private static final int REQUESTS = 20;
    private static final String API_KEY = "otlpKey7Zq2";

    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();
    private final List<Post> posts = new CopyOnWriteArrayList<>();
    private HttpServer receiver;

    private record Post(long atNanos, ExportMetricsServiceRequest request, String apiKey) {
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : children) {
            p.toHandle().descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : children) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private String startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/metrics", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                posts.add(new Post(System.nanoTime(), ExportMetricsServiceRequest.parseFrom(body),
                        exchange.getRequestHeaders().getFirst("api-key")));
                exchange.sendResponseHeaders(200, -1);
            } finally {
                exchange.close();
            }
        });
        receiver.start();
        return "http://127.0.0.1:" + receiver.getAddress().getPort();
    }

    private Path start(String name, List<String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream",
                "-cp", System.getProperty("java.class.path"), "io.capstream.cli.CapstreamMain"));
        cmd.addAll(List.of(args));
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        for (int i = 0; i < env.size(); i += 2) {
            pb.environment().put(env.get(i), env.get(i + 1));
        }
        children.add(pb.start());
        return log;
    }

    private Process last() {
        return children.get(children.size() - 1);
    }

    private static String text(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static void awaitLine(Process p, Path log, String line) {
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> text(log).contains(line) || !p.isAlive());
        assertThat(text(log)).as("log of " + log.getFileName()).contains(line);
    }

    /** Values counted by the chat points of a histogram in a post (every series), or -1 without the metric. */
    private static long chatCount(ExportMetricsServiceRequest request, String name) {
        long n = -1;
        for (var rm : request.getResourceMetricsList()) {
            for (var sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    if (m.getName().equals(name)) {
                        n = Math.max(n, 0) + m.getHistogram().getDataPointsList().stream()
                                .filter(p -> p.getAttributesList().stream().anyMatch(OtlpExportIT::isChat))
                                .mapToLong(p -> p.getCount()).sum();
                    }
                }
            }
        }
        return n;
    }

    private static boolean isChat(KeyValue kv) {
        return kv.getKey().equals("gen_ai.operation.name") && kv.getValue().getStringValue().equals("chat");
    }

    @Test
    @Timeout(420)
    void aRunsWindowsArriveAsGenAiHistogramsWithin75Seconds() throws Exception {
        String endpoint = startReceiver();
        int kafkaPort = Ports.freePort();
        int registryPort = Ports.freePort();
        Path upLog = start("up", List.of(), "up", "--kafka-port", Integer.toString(kafkaPort), "--registry-port",
                Integer.toString(registryPort));
        awaitLine(last(), upLog, UpBanner.READY_PREFIX);
        String bs = "127.0.0.1:" + kafkaPort;
        String registry = "http://127.0.0.1:" + registryPort + "/apis/ccompat/v7";

        Path aggLog = start("aggregate", List.of("OTEL_EXPORTER_OTLP_HEADERS", "api-key=" + API_KEY), "aggregate",
                "--bootstrap-servers", bs, "--schema-registry-url", registry, "--state-dir", dir.resolve("state")
                        .toString(), "--http-port", "0", "--stream-threads", "1", "--window", "10s", "--grace", "1s",
                "--otlp-endpoint", endpoint, "--engine", "capstream-sim");
        Process aggregate = last();
        awaitLine(aggregate, aggLog, "capstream aggregate: OTLP/HTTP metrics to " + endpoint + "/v1/metrics every 1m,"
                + " headers api-key=**** (names both, gen_ai.provider.name capstream-sim, cumulative)");

        CliRun run = CliRun.run("run", "--bootstrap-servers", bs, "--schema-registry-url", registry, "--requests",
                Integer.toString(REQUESTS), "--concurrency", "4", "--max-tokens", "16", "--ctx-tokens", "256",
                "--client-warmup", "0", "--output", dir.resolve("run.json").toString());
        long runEnd = System.nanoTime();
        assertThat(run.code()).as("run exit code: " + run.err()).isZero();

        String ttfo = LatencyMeasure.TTFO.otelName();
        String duration = LatencyMeasure.E2E.otelName();
        await().atMost(Duration.ofSeconds(75)).pollInterval(Duration.ofMillis(250)).until(() -> posts.stream()
                .anyMatch(p -> chatCount(p.request(), ttfo) == REQUESTS && chatCount(p.request(), duration) == REQUESTS));
        Post first = posts.stream().filter(p -> chatCount(p.request(), ttfo) == REQUESTS).findFirst().orElseThrow();
        System.err.printf("OtlpExportIT: %d posts; the run's last window arrived %d ms after the run's end%n",
                posts.size(), TimeUnit.NANOSECONDS.toMillis(first.atNanos() - runEnd));
        assertThat(chatCount(first.request(), LatencyMeasure.TTFO.otelLegacyName())).as("v1.41 name too")
                .isEqualTo(REQUESTS);
        assertThat(posts).as("the API key of OTEL_EXPORTER_OTLP_HEADERS is sent").allMatch(p -> API_KEY.equals(p.apiKey()));

        int before = posts.size();
        aggregate.destroy(); // SIGTERM
        assertThat(aggregate.waitFor(60, TimeUnit.SECONDS)).as("aggregate stopped").isTrue();
        assertThat(aggregate.exitValue()).as("exit code after SIGTERM").isEqualTo(143);
        assertThat(posts.size()).as("a last post on shutdown").isGreaterThan(before);
        assertThat(text(aggLog)).as("the aggregate's log").doesNotContain(API_KEY);
    }
}

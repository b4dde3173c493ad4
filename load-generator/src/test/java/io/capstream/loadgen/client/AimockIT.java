package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The load generator against a real third-party OpenAI-compatible mock,
 * {@code @copilotkit/aimock@1.43.0} from npm (installed into {@code .tools/aimock} by
 * {@code .ci/run}; never by this test), run as a child process with
 * {@code src/test/resources/aimock/fixtures.json}: a streaming profile (ttft/tps), reasoning
 * deltas, {@code truncateAfterChunks}, and the chaos modes malformed and 429. Skipped when
 * {@code node} or the installed mock is missing.
 */
class AimockIT {
    static final String VERSION = "1.43.0";
    static Process process;
    static Vertx vertx;
    static String base;

    static boolean onPath(String cmd) {
        try {
            Process p = new ProcessBuilder(cmd, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static Path repoRoot() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve(".ci"))) {
            p = p.getParent();
        }
        return p != null ? p : Paths.get("..").toAbsolutePath().normalize();
    }

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(onPath("node"), "node is not installed: skipping the aimock integration test");
        Path prefix = repoRoot().resolve(".tools/aimock");
        Path cli = prefix.resolve("node_modules/@copilotkit/aimock/dist/cli.js");
        // never installed from here: npm's output on this JVM's stdout corrupted Surefire's channel to the fork
        Assumptions.assumeTrue(Files.exists(cli), "@copilotkit/aimock@" + VERSION + " is not installed (" + cli
                + " is missing): skipping the aimock integration test; .ci/run installs it");
        Path fixtures = Paths.get("src/test/resources/aimock/fixtures.json").toAbsolutePath();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = Files.createTempFile("aimock", ".out");
        process = new ProcessBuilder("node", cli.toString(), "-p", Integer.toString(port), "-h", "127.0.0.1",
                "-f", fixtures.toString(), "--log-level", "warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        base = "http://127.0.0.1:" + port + "/v1";
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("aimock exited: " + Files.readString(log));
            }
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create(base + "/models").toURL().openConnection();
                c.setConnectTimeout(500);
                return c.getResponseCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static InMemoryEventSink run(RunConfig b, RunOutcome[] out) throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        out[0] = new LoadGenerator(vertx).run(b.withRequest(r -> r.withCtxTokens(256).withSharedPrefixTokens(64)), sink, RunListener.NONE)
                .get(60, TimeUnit.SECONDS);
        return sink;
    }

    private static <T> List<T> of(InMemoryEventSink sink, Class<T> type) {
        List<T> list = new ArrayList<>();
        for (RunEvent e : sink.events()) {
            if (type.isInstance(e.getPayload())) {
                list.add(type.cast(e.getPayload()));
            }
        }
        return list;
    }

    @Test
    void streamingProfile() throws Exception {
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-stream"))
                .withLoad(l -> l.withRequests(6).withConcurrency(3))
                .withRequest(r -> r.withThinkingMode(ThinkingMode.DISABLED)), o);
        assertEquals(6, o[0].completed(), () -> of(sink, RequestFailed.class).toString());
        assertEquals(0, o[0].exitCode());
        RunStarted rs = of(sink, RunStarted.class).get(0);
        assertEquals(null, rs.getMaxContextTokens(), "aimock's /models has no context length: probe gives null");
        for (RequestCompleted r : of(sink, RequestCompleted.class)) {
            // ttft 120 ms; the 103-char answer in 20-char chunks = 6 content chunks at 50 chunks/s
            assertTrue(r.getTtftNs() >= 100_000_000L, "ttft " + r.getTtftNs());
            assertEquals(6, r.getContentChunks());
            assertTrue(r.getE2eNs() >= 200_000_000L && r.getE2eNs() >= r.getTtftNs(), "ttft 120 ms + 5 more chunks at 20 ms: " + r.getE2eNs());
            assertEquals("usage", r.getOutputTokenSource());
            assertTrue(r.getCompletionTokens() > 0);
            assertTrue(r.getPromptTokens() > 0);
            assertEquals("stop", r.getFinishReason());
            assertEquals(200, r.getHttpStatus());
            assertTrue(r.getMaxChunkGapNs() >= 0 && r.getMaxChunkGapNs() < r.getE2eNs(), "gap " + r.getMaxChunkGapNs());
        }
    }

    @Test
    void reasoningDeltas() throws Exception {
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-reasoning"))
                .withLoad(l -> l.withRequests(3).withConcurrency(3))
                .withRequest(r -> r.withThinkingMode(ThinkingMode.ENABLED)), o);
        assertEquals(3, o[0].completed(), () -> of(sink, RequestFailed.class).toString());
        for (RequestCompleted r : of(sink, RequestCompleted.class)) {
            assertEquals(4, r.getReasoningChunks(), "66 chars of reasoning in 20-char chunks");
            assertEquals(2, r.getContentChunks());
            assertTrue(r.getTtfoNs() <= r.getTtftNs() && r.getTtfoNs() >= 75_000_000L, r.getTtfoNs() + " <= " + r.getTtftNs());
        }
    }

    @Test
    void truncateAfterChunksIsIncompleteRead() throws Exception {
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-truncate"))
                .withLoad(l -> l.withRequests(3).withConcurrency(3)), o);
        assertEquals(3, o[0].failed());
        assertEquals(1, o[0].exitCode());
        for (RequestFailed f : of(sink, RequestFailed.class)) {
            assertEquals(ErrorTypes.INCOMPLETE_READ, f.getErrorType(), f.toString());
            assertThat(f.getErrorMessage()).startsWith("IncompleteRead(");
            assertEquals(200, f.getHttpStatus());
        }
    }

    @Test
    void chaosMalformedBodyIsNotAStream() throws Exception {
        // aimock's malformed chaos answers 200 with Content-Type: application/json and a broken body
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-malformed"))
                .withLoad(l -> l.withRequests(2).withConcurrency(2)), o);
        assertEquals(2, o[0].failed());
        for (RequestFailed f : of(sink, RequestFailed.class)) {
            assertEquals(ErrorTypes.VALUE_ERROR, f.getErrorType());
            assertEquals("endpoint did not stream (Content-Type: application/json): {malformed json: <<<chaos>>>",
                    f.getErrorMessage());
            assertEquals(200, f.getHttpStatus());
        }
    }

    @Test
    void chaos429AndError500AreHttpErrors() throws Exception {
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-429"))
                .withLoad(l -> l.withRequests(2).withConcurrency(2)), o);
        assertEquals(2, o[0].failed());
        for (RequestFailed f : of(sink, RequestFailed.class)) {
            assertEquals(ErrorTypes.HTTP_ERROR, f.getErrorType());
            assertEquals("HTTP Error 429: Too Many Requests: Chaos: rate limit exceeded", f.getErrorMessage());
            assertEquals(429, f.getHttpStatus());
        }
        InMemoryEventSink sink500 = run(RunConfig.of(TargetConfig.of(base, "aimock-error"))
                .withLoad(l -> l.withRequests(1).withConcurrency(1)), o);
        assertEquals("HTTP Error 500: Internal Server Error: The server had an error",
                of(sink500, RequestFailed.class).get(0).getErrorMessage());
    }

    @Test
    void keepAliveRunCompletes() throws Exception {
        RunOutcome[] o = new RunOutcome[1];
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "aimock-stream"))
                .withTarget(t -> t.withKeepAlive(true))
                .withLoad(l -> l.withRequests(4).withConcurrency(2)), o);
        assertEquals(4, o[0].completed(), () -> of(sink, RequestFailed.class).toString());
        assertTrue(of(sink, RunStarted.class).get(0).getKeepAlive());
    }
}

package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 items 8 and 3: a wrong endpoint, and a {@code --ctx-tokens} above the model's prompt cap, stop
 * {@code run} and {@code sweep} before any load with one line, exit 2 (they used to run the warm-up and the
 * whole run into 100% failures, or clamp every prompt silently).
 */
@Timeout(120)
class EndpointPreflightCliTest {
    private Vertx vertx;
    private SimEngine sim;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().maxModelLen(32_768).build())
                .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** @return the command's own lines (without the note on when the embedded Kafka starts) */
    private static List<String> own(CliRun r, String command) {
        return r.lines().stream().filter(l -> l.startsWith("capstream " + command + ":")).toList();
    }

    private String root() {
        return "http://127.0.0.1:" + sim.port();
    }

    @Test
    void aBaseUrlWithoutV1StopsRunAndSweepBeforeAnyRequest(@TempDir Path tmp) {
        String hint = root() + " answered 404 to POST /chat/completions but serves GET /v1/models: the base URL"
                + " usually ends in /v1 (try --base-url " + root() + "/v1)";
        CliRun r = run("run", "--base-url", root(), "--model", "capstream-sim", "--requests", "4");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: " + hint), own(r, "run"), r.err());
        Path dir = tmp.resolve("sweep");
        CliRun s = run("sweep", "--base-url", root(), "--model", "capstream-sim", "--concurrency", "1,2",
                "--requests", "4", "--output-dir", dir.toString());
        assertEquals(2, s.code(), s.err());
        assertEquals(List.of("capstream sweep: " + hint), own(s, "sweep"), s.err());
        assertFalse(Files.exists(dir), "the sweep leaves no empty output directory behind");
        assertEquals(0, sim.stats().completed(), "no chat request may be served");
    }

    /**
     * Fresh-user pass 3: run and sweep named a base URL with user-info without it ({@code http://127.0.0.1:P}) while
     * their reports show {@code http://***@127.0.0.1:P}; the console now shows the reports' masked form, never the
     * password. Fresh-user pass 4: the hint said "try --base-url http://***@127.0.0.1:P/v1", which does not work as
     * printed (it sends *** as the credentials); it names the change to the user's own --base-url (failed before).
     */
    @Test
    void runAndSweepShowTheBaseUrlsUserInfoMaskedAsTheReportsDo(@TempDir Path tmp) {
        String withUserInfo = "http://user:Pw-Secret-8181@127.0.0.1:" + sim.port();
        String masked = "http://***@127.0.0.1:" + sim.port();
        String hint = masked + " answered 404 to POST /chat/completions but serves GET /v1/models: the base URL"
                + " usually ends in /v1 (try your --base-url with /v1 appended (" + masked + "/v1; its credentials are"
                + " not printed))";
        CliRun r = run("run", "--base-url", withUserInfo, "--model", "capstream-sim", "--requests", "4");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(own(r, "run")).as("run's lines").contains("capstream run: " + hint);
        assertThat(r.err()).as("run's output").contains("***@").doesNotContain("Pw-Secret-8181");
        CliRun s = run("sweep", "--base-url", withUserInfo, "--model", "capstream-sim", "--concurrency", "1,2",
                "--requests", "4", "--output-dir", tmp.resolve("sweep").toString());
        assertThat(s.code()).as("exit code; stderr %s", s.err()).isEqualTo(2);
        assertThat(own(s, "sweep")).as("sweep's lines").contains("capstream sweep: " + hint);
        assertThat(s.err()).as("sweep's output").contains("***@").doesNotContain("Pw-Secret-8181");
    }

    @Test
    void aBaseUrlEndingInChatCompletionsNamesTheBase() {
        CliRun r = run("run", "--base-url", sim.baseUrl() + "/chat/completions", "--model", "capstream-sim");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --base-url " + sim.baseUrl() + "/chat/completions ends in /chat/completions:"
                + " give the base (" + sim.baseUrl() + "); capstream appends /chat/completions"), r.lines());
    }

    @Test
    void nothingListeningAndHttpsAgainstPlainHttpAreOneLine() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        CliRun r = run("run", "--base-url", "http://127.0.0.1:" + closed + "/v1", "--model", "m", "--requests", "4");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: connection refused: nothing listens on 127.0.0.1:" + closed
                + " (--base-url http://127.0.0.1:" + closed + "/v1)"), own(r, "run"), r.err());
        String https = sim.baseUrl().replace("http://", "https://");
        CliRun t = run("run", "--base-url", https, "--model", "capstream-sim", "--requests", "4");
        assertEquals(2, t.code(), t.err());
        assertEquals(List.of("capstream run: TLS handshake failed with 127.0.0.1:" + sim.port()
                + ": the server speaks plain HTTP? try " + sim.baseUrl()), own(t, "run"), t.err());
    }

    @Test
    void ctxTokensAboveTheProbedWindowIsAUsageError() {
        CliRun r = run("run", "--base-url", sim.baseUrl(), "--model", "capstream-sim", "--ctx-tokens", "100000",
                "--requests", "4");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --ctx-tokens 100000 exceeds the prompt cap of 31680 tokens = the model's"
                + " window 32768 (GET /models) - --max-tokens 64 - --margin 1024; lower --ctx-tokens (at most 31680),"
                + " or --max-tokens or --margin"), own(r, "run"), r.err());
        assertEquals(0, sim.stats().completed(), "no chat request may be served");
    }
}

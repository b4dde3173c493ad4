package io.capstream.cli.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.run.RequestShape;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstream check} end to end against the built-in simulated engine, with each stream behaviour the check
 * detects switched on by its {@code --sim-} option, and its usage errors.
 */
class CheckCommandTest {
    /** A run with the default request options. */
    private static final RequestShape RUN = RequestShape.DEFAULTS;

    @TempDir
    Path cacheDir;

    private record Result(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return new ObjectMapper().readTree(out);
        }

        String value(String key) throws Exception {
            return json().path(key).path("value").asText();
        }
    }

    private Result check(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cacheDir.toString(), "SECRET_KEY", "sk-test-abcdef123456");
        CheckCommand cmd = new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env::get);
        int exit = new CommandLine(cmd).execute(args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theDefaultSimIsMeasurableWithItsBehavioursFound() throws Exception {
        Result r = check("--json", "--sim-ttft-ms", "5");
        assertThat(r.exit()).as("exit, stderr %s, stdout %s", r.err(), r.out()).isZero();
        JsonNode j = r.json();
        assertThat(j.path("measurable").asBoolean()).as("measurable in %s", r.out()).isTrue();
        assertThat(r.value("streaming")).as("streaming").isEqualTo("sse");
        assertThat(r.value("role_chunk_first")).as("role first").isEqualTo("yes");
        assertThat(r.value("usage_when_asked")).as("usage asked").isEqualTo("yes");
        assertThat(r.value("usage_unasked")).as("usage unasked").isEqualTo("no");
        assertThat(r.value("reasoning_field")).as("reasoning field").isEqualTo("reasoning_content");
        assertThat(r.value("context_window")).as("window").isEqualTo("32768");
        assertThat(r.value("max_tokens")).as("max_tokens").isEqualTo("honoured");
        assertThat(r.value("prefix_cache")).as("prefix cache").isEqualTo("visible");
        assertThat(r.value("server_timings")).as("timings").isEqualTo("yes");
        assertThat(r.value("oversize_prompt")).as("oversize").isEqualTo("HTTP 400");
        assertThat(r.value("metrics")).as("metrics").isEqualTo("yes");
    }

    @Test
    void eachSimSwitchIsFound() throws Exception {
        Result r = check("--json", "--sim-ttft-ms", "5", "--sim-preamble", "comment,progress,empty",
                "--sim-reasoning-field", "reasoning", "--sim-thinking-default", "--sim-usage", "always",
                "--sim-errors-in-stream");
        assertThat(r.exit()).as("exit, stderr %s, stdout %s", r.err(), r.out()).isZero();
        assertThat(r.value("before_first_token")).as("before first token").isEqualTo("comment, progress, empty");
        assertThat(r.value("role_chunk_first")).as("role first").isEqualTo("no");
        assertThat(r.value("reasoning_field")).as("reasoning field").isEqualTo("reasoning");
        assertThat(r.value("thinking_off")).as("thinking off").isEqualTo("yes");
        assertThat(r.value("usage_unasked")).as("usage unasked").isEqualTo("yes");
        assertThat(r.value("oversize_prompt")).as("oversize").isEqualTo("200 + error in stream");
        assertThat(r.value("error_in_stream")).as("error in stream").isEqualTo("yes");
        assertThat(r.value("implied_options")).as("implied").contains("--no-thinking");
        Result never = check("--json", "--sim-ttft-ms", "5", "--sim-usage", "never");
        assertThat(never.value("usage_when_asked")).as("usage never").isEqualTo("no");
    }

    @Test
    void aWholeJsonBodyToAStreamingRequestExitsOneWithTheReason() throws Exception {
        Result r = check("--sim-ttft-ms", "5", "--sim-no-stream");
        assertThat(r.exit()).as("exit, stdout %s", r.out()).isEqualTo(1);
        assertThat(r.out()).as("table").contains("whole JSON body")
                .contains("not measurable: streaming: \"stream\": true was answered with one JSON body");
    }

    /**
     * Fresh-user trial: a stream cut off mid-body (aimock's truncateAfterChunks, the sim's --sim-cut-rate) was
     * "streaming ok sse ... no [DONE]" and exit 0 while run fails every such request with IncompleteRead; now the
     * streaming finding fails with the reason, and the findings that need the whole stream are unknown.
     */
    @Test
    void aStreamCutOffMidBodyIsNotMeasurableAndItsWholeStreamFindingsAreUnknown() throws Exception {
        Result r = check("--json", "--sim-ttft-ms", "5", "--sim-cut-rate", "1.0");
        assertThat(r.exit()).as("exit, stderr %s, stdout %s", r.err(), r.out()).isEqualTo(1);
        JsonNode j = r.json();
        assertThat(j.path("streaming").path("verdict").asText()).as("streaming verdict in %s", r.out())
                .isEqualTo("fail");
        assertThat(r.value("streaming")).as("streaming value").isEqualTo("cut");
        assertThat(j.path("streaming").path("detail").asText()).as("streaming detail")
                .startsWith("the connection closed mid-stream after ").contains(" data chunks, no [DONE]")
                .endsWith("run counts such requests as IncompleteRead failures");
        assertThat(j.path("verdict").asText()).as("verdict line")
                .startsWith("not measurable: streaming: the connection closed mid-stream after ");
        for (String key : List.of("max_tokens", "usage_when_asked", "usage_unasked", "prefix_cache",
                "server_timings")) {
            assertThat(j.path(key).path("verdict").asText()).as("%s in %s", key, r.out()).isEqualTo("unknown");
            assertThat(j.path(key).path("detail").asText()).as("%s detail", key).contains("was cut");
        }
    }

    @Test
    void usageErrorsExitTwoBeforeAnythingIsSent() {
        assertThat(check("--base-url", "http://127.0.0.1:1/v1")).as("no --model")
                .satisfies(r -> assertThat(r.exit()).isEqualTo(2))
                .satisfies(r -> assertThat(r.err()).contains("--model is required with --base-url"));
        assertThat(check("--base-url", "ftp://x/v1", "--model", "m").err()).as("bad url")
                .contains("--base-url must start with http:// or https://");
        assertThat(check("--endpoint", "embeddings").err()).as("endpoint").contains("only chat and completions");
        assertThat(check("--api-key-env", "MISSING_VAR").err()).as("key").contains("MISSING_VAR is missing");
        assertThat(check("--timeout", "0").exit()).as("timeout").isEqualTo(2);
        assertThat(check("-H", "Host: x").err()).as("header").contains("capstream sets this header itself");
        Result both = check("--base-url", "http://user:UrlPw42@127.0.0.1:1/v1", "--model", "m",
                "-H", "Authorization: Bearer HeaderSecret7");
        assertThat(both.exit()).as("-H Authorization with user:password@ in the URL, stderr %s, stdout %s",
                both.err(), both.out()).isEqualTo(2);
        assertThat(both.err()).as("stderr").contains("both set the Authorization header; give one")
                .doesNotContain("UrlPw42").doesNotContain("HeaderSecret7");
    }

    @Test
    void secretsAreMaskedAndTheVerdictIsCachedForRun() {
        Result r = check("--base-url", "http://user:pw-secret-9876@127.0.0.1:1/v1", "--model", "m",
                "-H", "X-Api-Key: hk-secret-55667788", "--timeout", "5");
        assertThat(r.exit()).as("exit against a closed port, stdout %s", r.out()).isEqualTo(1);
        assertThat(r.out() + r.err()).as("output").doesNotContain("pw-secret-9876").doesNotContain("hk-secret-55667788")
                .contains("not measurable: connection refused: nothing listens on 127.0.0.1:1")
                .contains("(--base-url http://***@127.0.0.1:1/v1)"); // masked as in reports (fresh-user pass 3)
        CheckCache cache = new CheckCache(cacheDir.resolve("capstream/check"));
        assertThat(CachedVerdict.line("http://u:p@127.0.0.1:1/v1/", "m", "chat", RUN, cache, Instant.now()))
                .as("cached verdict for run").get().asString()
                .startsWith("endpoint check (capstream check, 0 min ago): not measurable: connection refused");
        assertThat(CachedVerdict.line("http://u:pw-secret-9876@127.0.0.1:2/v1", "m", "chat", RUN, cache, Instant.now()))
                .as("other target").get().asString()
                // fresh-user pass 4: the hint was 'capstream check --base-url http://***@127.0.0.1:2/v1 --model m',
                // which sends *** as the credentials as printed; it reads the user's own URL from the variable
                .isEqualTo("endpoint check: none in the last 24 h for this target ('capstream check --base-url"
                        + " \"$CAPSTREAM_BASE_URL\" --model m' probes its stream in seconds; set CAPSTREAM_BASE_URL to"
                        + " your --base-url, http://***@127.0.0.1:2/v1 with its credentials, which are not printed)")
                .doesNotContain("pw-secret-9876");
        assertThat(CachedVerdict.line("http://127.0.0.1:2/v1", "m", "chat", RUN, cache, Instant.now()))
                .as("other target")
                .get().asString().startsWith("endpoint check: none in the last 24 h");
        assertThat(CachedVerdict.line("http://127.0.0.1:1/v1", "m", "chat", RUN, cache,
                Instant.now().plus(CheckCache.MAX_AGE).plusSeconds(60))).as("stale").get().asString()
                .startsWith("endpoint check: none");
        assertThat(CachedVerdict.line(null, "m", "chat", RUN, cache, Instant.now())).as("built-in engine").isEmpty();
    }

    /**
     * Issue 33 (fresh-user pass): check says what run says of a base URL naming an API path, of https against a
     * plain-HTTP server and of http against an https one (the same code: TargetConfig, EndpointPreflight).
     */
    @Test
    void baseUrlMistakesGetRunsOneLineDiagnoses() throws Exception {
        Result path = check("--base-url", "http://127.0.0.1:1/v1/chat/completions", "--model", "m");
        assertThat(path.exit()).as("exit, stderr %s", path.err()).isEqualTo(2);
        assertThat(path.err()).as("stderr").isEqualTo("capstream check: --base-url http://127.0.0.1:1/v1/chat/completions"
                + " ends in /chat/completions: give the base (http://127.0.0.1:1/v1); capstream appends"
                + " /chat/completions; nothing was sent\n");
        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
        try {
            for (boolean https : new boolean[] {false, true}) {
                io.capstream.loadgen.sim.SimEngine sim = io.capstream.loadgen.sim.SimEngine.start(vertx,
                        io.capstream.loadgen.sim.SimConfig.builder().ttftBaseMs(1).https(https).build())
                        .toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
                try {
                    String hostPort = sim.baseUrl().replaceFirst("^https?://", "").replaceFirst("/v1$", "");
                    String wrong = (https ? "http://" : "https://") + hostPort + "/v1";
                    Result r = check("--base-url", wrong, "--model", "capstream-sim", "--timeout", "20");
                    assertThat(r.exit()).as("exit for %s, stdout %s", wrong, r.out()).isEqualTo(1);
                    assertThat(r.out()).as("stdout for %s", wrong).isEqualTo("not measurable: " + (https
                            ? "no HTTP answer from " + hostPort + " over plain HTTP, but it answers over TLS: the server"
                            + " speaks https? try https://" + hostPort + "/v1 (with --ca-cert FILE, or --insecure for a"
                            + " self-signed test endpoint)"
                            : "TLS handshake failed with " + hostPort + ": the server speaks plain HTTP? try http://"
                            + hostPort + "/v1") + "\n");
                } finally {
                    sim.close();
                }
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Issue 33 (fresh-user pass): a first token later than the bound per exchange is a time-out, not a failure. */
    @Test
    void aSlowEndpointIsReportedAsTimedOutWithTheOptionThatRaisesTheBound() throws Exception {
        Result r = check("--json", "--sim-ttft-ms", "4000", "--exchange-timeout", "1", "--timeout", "30");
        assertThat(r.exit()).as("exit, stderr %s, stdout %s", r.err(), r.out()).isEqualTo(1);
        assertThat(r.value("streaming")).as("streaming").isEqualTo("timed out");
        assertThat(r.json().path("verdict").asText()).as("verdict").isEqualTo("timed out: the first streamed request"
                + " got no complete answer: timed out after 1 s (the check's bound per exchange: --exchange-timeout"
                + " raises it, --timeout bounds the whole check)");
        assertThat(check("--exchange-timeout", "0").exit()).as("--exchange-timeout 0").isEqualTo(2);
    }

    /**
     * The endpoint check before the probes (GET /models) waited up to a fixed 60 s whatever --timeout said: against a
     * server that takes connections and never answers, {@code --timeout 2} now ends it with one line naming the bound.
     */
    @Test
    @org.junit.jupiter.api.Timeout(14) // below the endpoint check's own 15 s per exchange: it must not decide
    void theEndpointCheckIsBoundedByTimeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // read nothing, answer nothing
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String base = "http://127.0.0.1:" + silent.getLocalPort() + "/v1";
            Result r = check("--base-url", base, "--model", "m", "--timeout", "2");
            assertThat(r.exit()).as("exit, stderr %s", r.err()).isEqualTo(1);
            assertThat(r.out()).as("stdout").isEqualTo("not measurable: no answer from " + base + " to the endpoint"
                    + " check (GET /models) within 2 s (--timeout bounds the whole check)\n");
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }

    /** Issue 33 (fresh-user pass): check's help lists only the --endpoint values it takes, and no --sim-* option. */
    @Test
    void theHelpShowsOnlyWhatCheckAccepts() throws Exception {
        String help = new CommandLine(new CheckCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help).as("check --help").contains("--endpoint=chat|completions", "--exchange-timeout=DURATION",
                "the --sim-* options of").doesNotContain("--sim-ttft-ms")
                .doesNotContain("embeddings").doesNotContain("responses|messages");
        Result hidden = check("--json", "--sim-ttft-ms", "5", "--sim-usage", "never");
        assertThat(hidden.exit()).as("a hidden --sim-* option still works, stderr %s", hidden.err()).isZero();
        assertThat(hidden.value("usage_when_asked")).as("usage never").isEqualTo("no");
    }
}

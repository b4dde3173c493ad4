package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 26 item 8: an endpoint no request could reach is found before T0, in one line that says what to
 * try; a probe failure that does not prove it (a server without {@code /models}) stays a warning.
 */
@Timeout(60)
class EndpointPreflightTest {
    private Vertx vertx;
    /** Requests per "METHOD path" seen by the test server. */
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /**
     * A plain HTTP server on 127.0.0.1 answering the given paths with 200 and their bodies, and 404 otherwise.
     *
     * @return its port
     */
    private int server(Map<String, String> routes) throws Exception {
        HttpServer s = vertx.createHttpServer().requestHandler(r -> {
            hits.computeIfAbsent(r.method() + " " + r.path(), k -> new AtomicInteger()).incrementAndGet();
            String body = routes.get(r.method() + " " + r.path());
            if (body == null) {
                r.response().setStatusCode(404).end();
            } else {
                r.response().putHeader("Content-Type", "application/json").end(body);
            }
        });
        return s.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    private EndpointPreflight.Outcome check(String base, String model) throws Exception {
        return EndpointPreflight.check(vertx, base, ApiEndpoint.CHAT, model, ApiKey.none(), List.of(), true)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static final String MODELS = "{\"data\":[{\"id\":\"m\",\"max_model_len\":4096}]}";

    @Test
    void aBaseWithoutV1WhoseModelsAnswers404IsStoppedNamingV1() throws Exception {
        // vLLM's layout: /v1/models and /v1/chat/completions only
        int port = server(Map.of("GET /v1/models", MODELS, "POST /v1/chat/completions", "{}"));
        String base = "http://127.0.0.1:" + port;
        EndpointPreflight.Outcome o = check(base, "m");
        assertEquals(base + " answered 404 to GET /models and POST /chat/completions but serves GET /v1/models: the"
                + " base URL usually ends in /v1 (try --base-url " + base + "/v1)", o.problem(), o.toString());
        assertEquals(List.of(), o.warnings(), "a fatal outcome carries no warning");
    }

    @Test
    void aBaseWithoutV1IsStoppedAlsoWhenItsModelsAnswers() throws Exception {
        // capstream sim's layout (and llama-server's /models): /models at the root, the chat only under /v1
        int port = server(Map.of("GET /models", MODELS, "GET /v1/models", MODELS, "POST /v1/chat/completions", "{}"));
        String base = "http://127.0.0.1:" + port;
        EndpointPreflight.Outcome o = check(base + "/", "m");
        assertEquals(base + " answered 404 to POST /chat/completions but serves GET /v1/models: the base URL usually"
                + " ends in /v1 (try --base-url " + base + "/v1)", o.problem(), o.toString());
    }

    @Test
    void aBaseWithoutV1WhoseChatPathExistsRuns() throws Exception {
        // llama-server serves both /chat/completions and /v1/chat/completions: no /v1 is fine there
        int port = server(Map.of("GET /models", MODELS, "GET /v1/models", MODELS, "POST /chat/completions", "{}"));
        EndpointPreflight.Outcome o = check("http://127.0.0.1:" + port, "m");
        assertNull(o.problem(), o.toString());
        assertEquals(4096, o.window(), o.toString());
        assertEquals(List.of(), o.warnings(), o.toString());
    }

    @Test
    void aServerWithoutModelsIsAWarningNotAStop() throws Exception {
        int port = server(Map.of("POST /v1/chat/completions", "{}"));
        EndpointPreflight.Outcome o = check("http://127.0.0.1:" + port + "/v1", "m");
        assertNull(o.problem(), o.toString());
        assertNull(o.window(), o.toString());
        assertEquals(List.of("GET /v1/models answered 404: the context window is unknown, so the prompts are not"
                + " capped and --ctx-tokens is not checked (--max-model-len gives the window)"), o.warnings());
        assertEquals(null, hits.get("POST /v1/chat/completions"), "a base ending in /v1 gets no POST: " + hits);
    }

    @Test
    void aModelTheServerDoesNotListIsAWarning() throws Exception {
        int port = server(Map.of("GET /v1/models", "{\"data\":[{\"id\":\"a\",\"max_model_len\":8192},{\"id\":\"b\"}]}"));
        EndpointPreflight.Outcome o = check("http://127.0.0.1:" + port + "/v1", "typo");
        assertNull(o.problem(), o.toString());
        assertEquals(8192, o.window(), "the first object's window, as the reference picks it");
        assertEquals(List.of("--model 'typo' is not among the ids GET /v1/models lists (a, b): the requests may fail"),
                o.warnings());
    }

    @Test
    void aClosedPortIsConnectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        EndpointPreflight.Outcome o = check("http://127.0.0.1:" + port + "/v1", "m");
        assertEquals("connection refused: nothing listens on 127.0.0.1:" + port + " (--base-url http://127.0.0.1:"
                + port + "/v1)", o.problem(), o.toString());
    }

    /**
     * Fresh-user pass 3: the message named the base URL without its user-info ({@code http://127.0.0.1:P/v1}) while the
     * report shows it masked; now the same masked form ({@code http://***@...}), never the password.
     */
    @Test
    void aClosedPortNamesTheBaseUrlWithItsUserInfoMaskedAsTheReportsDo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        EndpointPreflight.Outcome o = check("http://user:pw-Secret-4242@127.0.0.1:" + port + "/v1/", "m");
        assertThat(o.problem()).as("problem of %s", o).isEqualTo("connection refused: nothing listens on 127.0.0.1:"
                + port + " (--base-url http://***@127.0.0.1:" + port + "/v1)").doesNotContain("pw-Secret-4242");
    }

    @Test
    void httpsAgainstPlainHttpSaysTryHttp() throws Exception {
        int port = server(Map.of("GET /v1/models", MODELS));
        EndpointPreflight.Outcome o = check("https://127.0.0.1:" + port + "/v1", "m");
        assertEquals("TLS handshake failed with 127.0.0.1:" + port + ": the server speaks plain HTTP? try http://127.0.0.1:"
                + port + "/v1", o.problem(), o.toString());
        assertEquals(Map.of(), hits, "no request reached the server's handler");
    }
}

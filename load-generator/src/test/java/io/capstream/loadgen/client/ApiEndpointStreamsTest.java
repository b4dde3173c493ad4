package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ExtraHeader;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Responses and Messages APIs through the streaming client (issue 29): path, headers, and the end of a stream
 * that has no {@code [DONE]}: the terminal event completes the request even when the server keeps the body open (the
 * server here never ends it: without that, each request would end at its timeout as a {@code TimeoutError}).
 */
class ApiEndpointStreamsTest {
    static Vertx vertx;
    static HttpServer http;
    static int port;
    static final Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();

    static final String RESPONSES = ""
            + "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_7\"}}\n\n"
            + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}\n\n"
            + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_7\","
            + "\"usage\":{\"input_tokens\":10,\"output_tokens\":2,\"input_tokens_details\":{\"cached_tokens\":4}}}}\n\n";
    static final String MESSAGES = ""
            + "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"usage\":"
            + "{\"input_tokens\":6,\"cache_read_input_tokens\":4,\"output_tokens\":0}}}\n\n"
            + "event: ping\ndata: {\"type\":\"ping\"}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
            + "{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
            + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
            + "\"usage\":{\"output_tokens\":2}}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().requestHandler(req -> {
            Map<String, String> h = new ConcurrentHashMap<>();
            req.headers().forEach(e -> h.put(e.getKey().toLowerCase(), e.getValue()));
            h.put("_path", req.path());
            seen.put(req.path().split("/")[1], h);
            HttpServerResponse r = req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            String stream = req.path().endsWith("/responses") ? RESPONSES : MESSAGES;
            // the events, then the body stays open: only the terminal event can end the request before its timeout
            vertx.setTimer(20, t -> r.write(stream));
        });
        port = http.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static RequestResult call(String shape, ApiEndpoint endpoint, ApiKey key, boolean keepAlive,
                                      List<ExtraHeader> headers) throws Exception {
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig("http://127.0.0.1:" + port + "/" + shape
                + "/v1", 10, keepAlive, 4, key, endpoint, headers)));
        try {
            Promise<RequestResult> p = Promise.promise();
            vertx.runOnContext(v -> client.execute(Buffer.buffer("{}")).onComplete(p));
            return p.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    @Test
    void messagesSendsAnthropicHeadersAndEndsAtMessageStop() throws Exception {
        ApiKey key = ApiKey.fromEnv("K", n -> "sk-ant-secret");
        RequestResult r = call("m1", ApiEndpoint.MESSAGES, key, false, List.of());
        assertThat(r.error()).as("error").isNull();
        assertThat(r.contentChunks()).as("content chunks").isEqualTo(1);
        assertThat(r.promptTokens()).as("input + cache read").isEqualTo(10);
        assertThat(r.cachedTokens()).as("cache read").isEqualTo(4);
        assertThat(r.completionTokens()).as("output tokens").isEqualTo(2);
        assertThat(r.finishReason()).as("finish").isEqualTo("stop");
        assertThat(r.e2eNs()).as("e2e after the first token").isGreaterThanOrEqualTo(r.ttftNs());
        Map<String, String> h = seen.get("m1");
        assertThat(h.get("_path")).as("path").isEqualTo("/m1/v1/messages");
        assertThat(h.get("anthropic-version")).as("anthropic-version").isEqualTo("2023-06-01");
        assertThat(h.get("x-api-key")).as("the key as x-api-key").isEqualTo("sk-ant-secret");
        assertThat(h).as("no Authorization header with x-api-key").doesNotContainKey("authorization");
    }

    @Test
    void messagesWithKeepAliveAlsoEndsAtMessageStopAndAHeaderReplacesTheVersion() throws Exception {
        RequestResult r = call("m2", ApiEndpoint.MESSAGES, ApiKey.none(), true,
                List.of(new ExtraHeader("anthropic-version", "2099-01-01")));
        assertThat(r.error()).as("error").isNull();
        Map<String, String> h = seen.get("m2");
        assertThat(h.get("anthropic-version")).as("-H replaces capstream's version").isEqualTo("2099-01-01");
        assertThat(h).as("no key: neither header").doesNotContainKeys("authorization", "x-api-key");
    }

    @Test
    void messagesKeepsABaseUrlsBasicAuthInAuthorization() throws Exception {
        RequestResult r = call("m3", ApiEndpoint.MESSAGES, ApiKey.basic("user:pw"), false, List.of());
        assertThat(r.error()).as("error").isNull();
        Map<String, String> h = seen.get("m3");
        assertThat(h.get("authorization")).as("basic auth is a proxy's, not the API key").startsWith("Basic ");
        assertThat(h).as("no x-api-key from basic auth").doesNotContainKey("x-api-key");
    }

    @Test
    void responsesUsesBearerAndEndsAtResponseCompleted() throws Exception {
        RequestResult r = call("r1", ApiEndpoint.RESPONSES, ApiKey.fromEnv("K", n -> "sk-1"), false, List.of());
        assertThat(r.error()).as("error").isNull();
        assertThat(r.contentChunks()).as("content").isEqualTo(1);
        assertThat(r.promptTokens()).as("input tokens").isEqualTo(10);
        assertThat(r.cachedTokens()).as("cached").isEqualTo(4);
        assertThat(r.completionTokens()).as("output tokens").isEqualTo(2);
        Map<String, String> h = seen.get("r1");
        assertThat(h.get("_path")).as("path").isEqualTo("/r1/v1/responses");
        assertThat(h.get("authorization")).as("bearer").isEqualTo("Bearer sk-1");
        assertThat(h).as("no anthropic headers").doesNotContainKeys("anthropic-version", "x-api-key");
    }
}

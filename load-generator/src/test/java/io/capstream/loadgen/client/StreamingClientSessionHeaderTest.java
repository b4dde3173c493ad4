package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiKey;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A request's own headers ({@code --session-header}, issue 29) reach the server with that request only. */
class StreamingClientSessionHeaderTest {
    static Vertx vertx;
    static HttpServer http;
    static final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            seen.add(Map.of("x-session-id", String.valueOf(req.getHeader("X-Session-Id"))));
            req.response().putHeader("Content-Type", "text/event-stream")
                    .end("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n");
        }));
        http.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static RequestResult send(StreamingClient client, Map<String, String> headers) throws Exception {
        Promise<RequestResult> p = Promise.promise();
        vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\"}"), headers).onComplete(p));
        return p.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void aRequestsOwnHeaderIsSentWithThatRequestOnly() throws Exception {
        seen.clear(); // the Vert.x client's subclass runs the same test with the same server
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig("http://127.0.0.1:" + http.actualPort()
                + "/v1", 5, true, 4, ApiKey.none())));
        try {
            RequestResult first = send(client, Map.of("X-Session-Id", "run-1-c7"));
            RequestResult second = send(client, Map.of());
            assertThat(first.error()).as("first request's error").isNull();
            assertThat(second.error()).as("second request's error").isNull();
        } finally {
            client.close();
        }
        assertThat(seen).as("X-Session-Id as the server saw it, per request")
                .containsExactly(Map.of("x-session-id", "run-1-c7"), Map.of("x-session-id", "null"));
    }
}

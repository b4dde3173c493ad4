package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The non-streamed request path of embeddings and rerank (issue 30), through {@link StreamingClient}. */
class InputsClientTest {
    static Vertx vertx;
    static HttpServer http;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            String path = req.path();
            if (path.endsWith("/fail/embeddings")) {
                req.response().setStatusCode(500).setStatusMessage("Internal Server Error")
                        .putHeader("Content-Type", "application/json")
                        .end("{\"error\":{\"message\":\"input is too large to process\"}}");
                return;
            }
            // the answer in two writes: the client must read the whole body before it parses it
            String vectors = "{\"embedding\":[0.1,0.2]},".repeat(path.contains("/short/") ? 1 : 2);
            req.response().setChunked(true).putHeader("Content-Type", "application/json")
                    .write("{\"object\":\"list\",\"data\":[" + vectors.substring(0, vectors.length() - 1));
            req.response().end("],\"usage\":{\"prompt_tokens\":42,\"total_tokens\":42}}");
        }));
        http.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static RequestResult send(String base, boolean keepAlive) throws Exception {
        StreamingClient client = new StreamingClient(vertx, new ClientConfig("http://127.0.0.1:" + http.actualPort()
                + base, 5, keepAlive, 4, ApiKey.none(), ApiEndpoint.EMBEDDINGS, List.of()));
        try {
            Promise<RequestResult> p = Promise.promise();
            vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\",\"input\":[\"a\",\"b\"]}"), Map.of())
                    .onComplete(p));
            return p.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    @Test
    void anAnswerWithOneEmbeddingPerInputCompletesWithItsUsageAndNoFirstToken() throws Exception {
        for (boolean keepAlive : new boolean[] {false, true}) {
            RequestResult r = send("/v1", keepAlive);
            assertThat(r.error()).as("error (keep-alive %s)", keepAlive).isNull();
            assertThat(r.httpStatus()).as("status").isEqualTo(200);
            assertThat(r.promptTokens()).as("usage.prompt_tokens").isEqualTo(42);
            assertThat(r.ttftNs()).as("TTFT: not reached").isEqualTo(-1);
            assertThat(r.ttfoNs()).as("TTFO: not reached").isEqualTo(-1);
            assertThat(r.e2eNs()).as("request latency").isPositive();
            assertThat(r.completionTokens()).as("no output tokens").isEqualTo(-1);
            assertThat(r.bodyBytes()).as("body bytes").isGreaterThan(60);
        }
    }

    @Test
    void anAnswerWithFewerEmbeddingsFails() throws Exception {
        RequestResult r = send("/short/v1", false);
        assertThat(r.error()).as("1 embedding for 2 inputs")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the embeddings answer has 1 embeddings for 2 inputs"));
        assertThat(r.promptTokens()).as("usage is still read").isEqualTo(42);
    }

    @Test
    void aServerErrorFailsWithItsMessage() throws Exception {
        RequestResult r = send("/fail", false);
        assertThat(r.error()).as("HTTP 500").isEqualTo(RequestError.of(ErrorTypes.HTTP_ERROR,
                "HTTP Error 500: Internal Server Error: input is too large to process"));
        assertThat(r.httpStatus()).as("status").isEqualTo(500);
    }
}

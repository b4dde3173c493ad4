package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiKey;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: the client cancels a request at its cancel time: it ends as {@link ErrorTypes#CANCELLED} with what had
 * arrived, and its connection is closed so that the server sees the client gone; a request that ends before its
 * cancel time completes normally.
 */
class StreamingClientCancelTest {
    static Vertx vertx;
    static HttpServer http;
    static final CompletableFuture<Void> serverSawClose = new CompletableFuture<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            if (req.path().startsWith("/hold")) {
                // one content chunk with usage at once, then nothing: only the client's cancel ends it
                req.connection().closeHandler(v -> serverSawClose.complete(null));
                req.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                        .write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n"
                                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\n");
            } else {
                req.response().putHeader("Content-Type", "text/event-stream")
                        .end("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n");
            }
        }));
        http.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static RequestResult send(String base, long cancelAfterNs) throws Exception {
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig(base, 30, false, 4, ApiKey.none())));
        try {
            Promise<RequestResult> p = Promise.promise();
            vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\"}"), Map.of(), cancelAfterNs)
                    .onComplete(p));
            return p.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    @Test
    void aStreamStillOpenAtItsCancelTimeEndsCancelledWithWhatHadArrivedAndTheServerSeesTheClientGone()
            throws Exception {
        RequestResult r = send("http://127.0.0.1:" + http.actualPort() + "/hold", 5_000_000_000L);
        assertThat(r.cancelled()).as("cancelled; error %s", r.error()).isTrue();
        assertThat(r.ok()).as("ok").isFalse();
        assertThat(r.contentChunks()).as("content chunks before the cancel; result %s", r).isEqualTo(1);
        assertThat(r.ttftNs()).as("ttft before the cancel, ns").isNotNegative();
        assertThat(r.completionTokens()).as("usage before the cancel").isEqualTo(1);
        assertThat(r.httpStatus()).as("status").isEqualTo(200);
        assertThat(r.e2eNs()).as("end, ns after t0: not before the cancel time").isGreaterThanOrEqualTo(5_000_000_000L);
        serverSawClose.get(20, TimeUnit.SECONDS); // the server's connection closed: it saw the client go away
    }

    @Test
    void aRequestThatEndsBeforeItsCancelTimeCompletes() throws Exception {
        RequestResult r = send("http://127.0.0.1:" + http.actualPort() + "/v1", 20_000_000_000L);
        assertThat(r.error()).as("error of a request that ended before its cancel time").isNull();
        assertThat(r.contentChunks()).as("content chunks").isEqualTo(1);
    }
}

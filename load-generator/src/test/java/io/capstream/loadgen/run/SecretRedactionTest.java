package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Credentials reach the endpoint but never the events (issue 11, item 5): {@code user:password@} of
 * the base URL is sent as HTTP basic auth and recorded as {@code ***@}; an API key the endpoint
 * echoes in an error message is recorded as {@code ***}.
 */
class SecretRedactionTest {
    private static final String KEY = "sk-test-0123456789abcdefXYZ";
    private static final String PASSWORD = "s3cret-pw";
    static Vertx vertx;
    static HttpServer server;
    static int port;
    static final List<String> authorizations = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> {
            String auth = req.getHeader("Authorization");
            authorizations.add(req.path() + " " + auth);
            if (req.path().endsWith("/models")) {
                req.response().putHeader("Content-Type", "application/json")
                        .end("{\"data\":[{\"id\":\"m\",\"max_model_len\":4096}]}");
                return;
            }
            req.body().onSuccess(b -> {
                String model = b.toJsonObject().getString("model");
                if (auth != null && auth.startsWith("Bearer ")) {
                    String echoed = auth.substring(7);
                    String body = model.equals("long-error")
                            // the key straddles the 2048-character cut of the recorded message
                            ? "{\"error\":{\"message\":\"" + "x".repeat(2048 - 38 - 10) + echoed + "\"}}"
                            : "{\"error\":{\"message\":\"Incorrect API key provided: " + echoed
                                    + ". You can find your API key at https://example.com/keys.\"}}";
                    req.response().setStatusCode(401).putHeader("Content-Type", "application/json").end(body);
                    return;
                }
                if (model.equals("echo-finish")) {
                    // a server that quotes the request's key header in finish_reason
                    req.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                            .end("data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop for "
                                    + req.getHeader("X-Api-Key") + "\"}]}\n\ndata: [DONE]\n\n");
                    return;
                }
                if (model.equals("echo-auth")) {
                    String decoded = new String(Base64.getDecoder().decode(auth.substring(6)), StandardCharsets.UTF_8);
                    req.response().setStatusCode(500).end("login " + decoded + " is not allowed");
                    return;
                }
                req.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                        .end("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\ndata: [DONE]\n\n");
            });
        });
        port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void reset() {
        authorizations.clear();
    }

    private static InMemoryEventSink run(RunConfig b) throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        new LoadGenerator(vertx, Map.of("KEY", KEY)::get)
                .run(b.withLoad(l -> l.withRequests(2).withConcurrency(1))
                        .withRequest(r -> r.withCtxTokens(64).withSharedPrefixTokens(0)), sink, null)
                .get(60, TimeUnit.SECONDS);
        return sink;
    }

    @Test
    void anApiKeyEchoedInAnErrorIsMaskedButStillSent() throws Exception {
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of("http://127.0.0.1:" + port + "/v1", "m"))
                .withTarget(t -> t.withApiKeyEnv("KEY"))
                .withRequest(r -> r.withMaxModelLen(4096)));
        List<RequestFailed> failed = sink.payloads(RequestFailed.class);
        assertEquals(2, failed.size());
        for (RequestFailed f : failed) {
            assertEquals("HTTPError", f.getErrorType());
            assertEquals("HTTP Error 401: Unauthorized: Incorrect API key provided: ***. You can find your API key"
                    + " at https://example.com/keys.", f.getErrorMessage());
        }
        assertThat(authorizations).contains("/v1/chat/completions Bearer " + KEY);
        assertThat(sink.events().toString()).doesNotContain(KEY.substring(0, 12));
    }

    @Test
    void credentialHeadersEchoedInAnErrorOrAFinishReasonAreMaskedButStillSent() throws Exception {
        String bearer = "hdr-bearer-0123456789";
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of("http://127.0.0.1:" + port + "/v1", "m"))
                .withTarget(t -> t.withHeaders(List.of(io.capstream.loadgen.workload.ExtraHeader.parse("Authorization: Bearer " + bearer))))
                .withRequest(r -> r.withMaxModelLen(4096)));
        assertThat(authorizations).contains("/v1/chat/completions Bearer " + bearer);
        for (RequestFailed f : sink.payloads(RequestFailed.class)) {
            assertEquals("HTTP Error 401: Unauthorized: Incorrect API key provided: ***. You can find your API key"
                    + " at https://example.com/keys.", f.getErrorMessage());
        }
        assertThat(sink.events().toString()).as("the -H Authorization token in no event").doesNotContain(bearer);

        String key = "hdr-xkey-9876543210";
        InMemoryEventSink echoed = run(RunConfig.of(TargetConfig.of("http://127.0.0.1:" + port + "/v1", "echo-finish"))
                .withTarget(t -> t.withHeaders(List.of(io.capstream.loadgen.workload.ExtraHeader.parse("X-Api-Key: " + key))))
                .withRequest(r -> r.withMaxModelLen(4096)));
        List<RequestCompleted> done = echoed.payloads(RequestCompleted.class);
        assertEquals(2, done.size());
        done.forEach(c -> assertEquals("stop for ***", c.getFinishReason()));
        assertThat(echoed.events().toString()).as("the -H X-Api-Key value in no event").doesNotContain(key);
    }

    @Test
    void aKeyCutByTheMessageLimitIsMaskedToo() throws Exception {
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of("http://127.0.0.1:" + port + "/v1", "long-error"))
                .withTarget(t -> t.withApiKeyEnv("KEY"))
                .withRequest(r -> r.withMaxModelLen(4096)));
        for (RequestFailed f : sink.payloads(RequestFailed.class)) {
            assertTrue(f.getErrorMessageTruncated());
            assertThat(f.getErrorMessage()).as(f.getErrorMessage().substring(2000)).endsWith("x***");
            assertThat(f.getErrorMessage()).as(f.getErrorMessage().substring(2000)).doesNotContain("sk-t");
        }
    }

    @Test
    void userInfoOfTheBaseUrlIsSentAsBasicAuthAndRecordedAsMasked() throws Exception {
        String base = "http://alice:" + PASSWORD + "@127.0.0.1:" + port + "/v1";
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "m"))); // max-model-len 0: the probe is sent too
        String basic = "Basic " + Base64.getEncoder().encodeToString(("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertThat(authorizations).contains("/v1/models " + basic);
        assertThat(authorizations).contains("/v1/chat/completions " + basic);
        String masked = "http://***@127.0.0.1:" + port + "/v1";
        assertEquals(masked, sink.payloads(RunStarted.class).get(0).getBaseUrl());
        assertEquals(4096, sink.payloads(RunStarted.class).get(0).getMaxContextTokens());
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
        assertEquals(2, done.size());
        done.forEach(c -> assertEquals(masked, c.getTarget()));
        assertThat(sink.events().toString()).doesNotContain(PASSWORD);
    }

    @Test
    void thePasswordEchoedByTheServerIsMaskedInFailures() throws Exception {
        String base = "http://alice:" + PASSWORD + "@127.0.0.1:" + port + "/v1";
        InMemoryEventSink sink = run(RunConfig.of(TargetConfig.of(base, "echo-auth")).withRequest(r -> r.withMaxModelLen(4096)));
        List<RequestFailed> failed = sink.payloads(RequestFailed.class);
        assertEquals(2, failed.size());
        failed.forEach(f -> {
            assertEquals("HTTP Error 500: Internal Server Error: login alice:*** is not allowed", f.getErrorMessage());
            assertEquals("http://***@127.0.0.1:" + port + "/v1", f.getTarget());
        });
    }
}

package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ModelsProbeTest {
    static Integer parse(String s, String model) {
        return ModelsProbe.parse(Buffer.buffer(s), model);
    }

    @Test
    void choosesMatchingIdElseFirstObject() {
        String body = "{\"data\":[\"junk\",{\"id\":\"a\",\"max_model_len\":1000},{\"id\":\"b\",\"max_model_len\":2000}]}";
        assertEquals(2000, parse(body, "b"));
        assertEquals(1000, parse(body, "zzz"));
    }

    @Test
    void firstPositiveIntegerKeyWins() {
        assertEquals(300, parse("{\"data\":[{\"id\":\"m\",\"max_model_len\":0,\"max_context_length\":300,\"context_length\":9}]}", "m"));
        assertEquals(9, parse("{\"data\":[{\"id\":\"m\",\"max_model_len\":\"4096\",\"max_context_length\":1.5,\"context_length\":9}]}", "m"));
        assertNull(parse("{\"data\":[{\"id\":\"m\",\"max_model_len\":true}]}", "m"));
    }

    /**
     * Issue 33 (fresh-user pass): llama-server's GET /v1/models (seen on this machine, -np 4 -c 8192) gives the window
     * only as meta.n_ctx (per slot) and meta.n_ctx_train.
     */
    @Test
    void llamaServersMetaGivesTheWindowServedContextFirst() {
        String llama = "{\"object\":\"list\",\"data\":[{\"id\":\"random-llama-20m\",\"object\":\"model\","
                + "\"owned_by\":\"llamacpp\",\"meta\":{\"vocab_type\":true,\"n_vocab\":32000,\"n_ctx\":2048,"
                + "\"n_ctx_train\":4096,\"n_embd\":256}}]}";
        org.assertj.core.api.Assertions.assertThat(parse(llama, "random-llama-20m")).as("window from meta.n_ctx")
                .isEqualTo(2048);
        org.assertj.core.api.Assertions.assertThat(parse("{\"data\":[{\"id\":\"m\",\"meta\":{\"n_ctx_train\":4096}}]}",
                "m")).as("window from meta.n_ctx_train alone").isEqualTo(4096);
        org.assertj.core.api.Assertions.assertThat(parse("{\"data\":[{\"id\":\"m\",\"max_model_len\":1000,"
                + "\"meta\":{\"n_ctx\":2048}}]}", "m")).as("the reference's keys first").isEqualTo(1000);
    }

    @Test
    void garbageIsNull() {
        assertNull(parse("not json", "m"));
        assertNull(parse("{\"data\":{}}", "m"));
        assertNull(parse("[]", "m"));
        assertNull(ModelsProbe.parse(null, "m"));
    }

    @Test
    void liveProbeAndSilentFailures() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            var seen = new java.util.concurrent.atomic.AtomicReference<String>();
            int port = vertx.createHttpServer().requestHandler(r -> {
                seen.set(r.path() + " " + r.getHeader("Authorization"));
                if (r.path().equals("/v1/models")) {
                    r.response().end("{\"data\":[{\"id\":\"m\",\"context_length\":8192}]}");
                } else {
                    r.response().setStatusCode(500).end();
                }
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            ApiKey key = ApiKey.fromEnv("K", Map.of("K", "abc")::get);
            assertEquals(8192, ModelsProbe.probe(vertx, "http://127.0.0.1:" + port + "/v1/", "m", key)
                    .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
            assertEquals("/v1/models Bearer abc", seen.get());
            assertNull(ModelsProbe.probe(vertx, "http://127.0.0.1:" + port + "/other", "m", ApiKey.none())
                    .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
            assertNull(ModelsProbe.probe(vertx, "http://127.0.0.1:1/v1", "m", ApiKey.none())
                    .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
            assertEquals("ApiKey[***]", key.toString());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Regression (CI failure of stop 7): a probe started from a thread outside Vert.x lost the end
     * of a small response about once in 3,000 probes, so its body future never completed and the
     * probe silently gave null after 15 s. 10,000 probes make the old code fail ~96% of runs.
     */
    @Test
    void probesFromANonVertxThreadNeverLoseTheResponse() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(r -> r.response()
                            .putHeader("Content-Type", "application/json")
                            .end("{\"data\":[{\"id\":\"m\",\"max_model_len\":4096}]}"))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            String base = "http://127.0.0.1:" + port + "/v1";
            int probes = 10_000;
            int unknown = 0;
            for (int i = 0; i < probes; i++) {
                Integer window = ModelsProbe.probe(vertx, base, "m", ApiKey.none())
                        .timeout(3, TimeUnit.SECONDS).otherwise((Integer) null)
                        .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
                if (window == null || window != 4096) {
                    unknown++;
                }
            }
            assertEquals(0, unknown, "probes that lost the /models response out of " + probes);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}

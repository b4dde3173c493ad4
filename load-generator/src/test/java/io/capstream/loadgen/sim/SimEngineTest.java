package io.capstream.loadgen.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SimEngineTest {
    private Vertx vertx;
    private HttpClient http;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        http = SseProbe.client(vertx);
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private SimEngine start(SimConfig cfg) throws Exception {
        return SimEngine.start(vertx, cfg).await(10, TimeUnit.SECONDS);
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.await(30, TimeUnit.SECONDS);
    }

    private static String prompt(int chars) {
        return "x".repeat(chars);
    }

    @Test
    void modelsListsIdAndMaxModelLen() throws Exception {
        SimEngine sim = start(SimConfig.builder().modelId("m1").maxModelLen(4096).build());
        JsonObject body = await(WebClient.create(vertx).get(sim.port(), "127.0.0.1", "/v1/models").send()).bodyAsJsonObject();
        JsonObject m = body.getJsonArray("data").getJsonObject(0);
        assertEquals("m1", m.getString("id"));
        assertEquals(4096, m.getInteger("max_model_len"));
        assertThat(sim.baseUrl()).endsWith(":" + sim.port() + "/v1");
    }

    @Test
    void streamHasOpenAiShape() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(5).streamDecodeTokPerS(1000).build());
        SseProbe.Result r = await(SseProbe.post(http, sim.port(), SseProbe.body(prompt(340), 8, true)));
        assertEquals(200, r.status());
        List<JsonObject> chunks = r.json();
        // role, 8 content deltas, finish, usage
        assertEquals(11, chunks.size());
        JsonObject role = chunks.get(0).getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
        assertEquals("assistant", role.getString("role"));
        assertEquals("", role.getString("content"));
        for (int i = 1; i <= 8; i++) {
            JsonObject c = chunks.get(i);
            assertEquals("chat.completion.chunk", c.getString("object"));
            assertThat(c.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").getString("content")).isNotEmpty();
        }
        JsonObject fin = chunks.get(9).getJsonArray("choices").getJsonObject(0);
        assertEquals("length", fin.getString("finish_reason"));
        assertTrue(fin.getJsonObject("delta").isEmpty());
        JsonObject usageChunk = chunks.get(10);
        assertTrue(usageChunk.getJsonArray("choices").isEmpty());
        JsonObject usage = usageChunk.getJsonObject("usage");
        assertEquals(100, usage.getInteger("prompt_tokens")); // 340 chars / 3.4
        assertEquals(8, usage.getInteger("completion_tokens"));
        assertEquals(108, usage.getInteger("total_tokens"));
        assertEquals(0, usage.getJsonObject("prompt_tokens_details").getInteger("cached_tokens"));
        assertNotNull(usageChunk.getJsonObject("timings").getDouble("prompt_ms"));
        assertEquals("[DONE]", r.lines().get(r.lines().size() - 1).data());
        assertNull(r.error());
    }

    /** {@code POST /v1/completions} (for {@code --endpoint completions}): text chunks, no role, then usage. */
    @Test
    void textCompletionsStreamChoicesText() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(5).streamDecodeTokPerS(1000).build());
        JsonObject body = new JsonObject().put("model", "capstream-sim").put("prompt", prompt(340)).put("max_tokens", 8)
                .put("stream", true).put("stream_options", new JsonObject().put("include_usage", true));
        List<JsonObject> chunks = await(SseProbe.post(http, sim.port(), "/v1/completions", body)).json();
        assertEquals(10, chunks.size(), "8 texts, finish, usage: " + chunks);
        for (int i = 0; i < 8; i++) {
            JsonObject c = chunks.get(i);
            assertEquals("text_completion", c.getString("object"));
            assertThat(c.getString("id")).startsWith("cmpl-sim-");
            assertThat(c.getJsonArray("choices").getJsonObject(0).getString("text")).isNotEmpty();
            assertFalse(c.getJsonArray("choices").getJsonObject(0).containsKey("delta"));
        }
        assertEquals("length", chunks.get(8).getJsonArray("choices").getJsonObject(0).getString("finish_reason"));
        assertEquals(8, chunks.get(9).getJsonObject("usage").getInteger("completion_tokens"));

        JsonObject plain = body.copy().put("stream", false);
        plain.remove("stream_options");
        JsonObject whole = new JsonObject(await(SseProbe.post(http, sim.port(), "/v1/completions", plain)).json().get(0)
                .encode());
        assertEquals("text_completion", whole.getString("object"));
        assertThat(whole.getJsonArray("choices").getJsonObject(0).getString("text")).isNotEmpty();
        SseProbe.Result bad = await(SseProbe.post(http, sim.port(), "/v1/completions",
                new JsonObject().put("model", "m").put("messages", new io.vertx.core.json.JsonArray())));
        assertEquals(400, bad.status(), "a completion needs a prompt");
    }

    @Test
    void noUsageChunkWithoutIncludeUsage() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).build());
        JsonObject body = SseProbe.body("hello", 3, true);
        body.remove("stream_options");
        SseProbe.Result r = await(SseProbe.post(http, sim.port(), body));
        assertEquals(5, r.json().size()); // role + 3 content + finish
        assertThat(r.json()).noneMatch(c -> c.containsKey("usage"));
    }

    @Test
    void reasoningDeltasComeFirstWhenThinkingIsOn() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).reasoningTokens(3).build());
        JsonObject body = SseProbe.body("think", 6, true)
                .put("chat_template_kwargs", new JsonObject().put("enable_thinking", true));
        List<JsonObject> chunks = await(SseProbe.post(http, sim.port(), body)).json();
        List<String> kinds = new ArrayList<>();
        for (JsonObject c : chunks) {
            JsonArray ch = c.getJsonArray("choices");
            if (!ch.isEmpty()) {
                JsonObject d = ch.getJsonObject(0).getJsonObject("delta");
                if (d.getString("reasoning_content") != null) {
                    kinds.add("r");
                } else if (d.getString("content") != null && !d.getString("content").isEmpty()) {
                    kinds.add("c");
                }
            }
        }
        assertEquals(List.of("r", "r", "r", "c", "c", "c"), kinds);
        assertEquals(6, chunks.get(chunks.size() - 1).getJsonObject("usage").getInteger("completion_tokens"));
        // thinking off explicitly: no reasoning
        body.put("chat_template_kwargs", new JsonObject().put("enable_thinking", false));
        assertTrue(await(SseProbe.post(http, sim.port(), body)).lines().stream()
                .noneMatch(l -> l.data().contains("reasoning_content")));
    }

    @Test
    void ttftGrowsWithPromptLength() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(50).prefillTokPerS(10_000).prefixCache(false)
                .streamDecodeTokPerS(1000).build());
        // a first request pays the cold code path (tens of ms in CI): warm it up, so that the small request's TTFT
        // is the model's and the difference below is the prefill alone
        await(SseProbe.post(http, sim.port(), SseProbe.body(prompt(34), 2, true)));
        SseProbe.Result small = await(SseProbe.post(http, sim.port(), SseProbe.body(prompt(34), 2, true)));
        SseProbe.Result big = await(SseProbe.post(http, sim.port(), SseProbe.body(prompt(6_800), 2, true)));
        double smallMs = small.firstContentNs() / 1e6;
        double bigMs = big.firstContentNs() / 1e6;
        // lower bounds only: the sim never answers before its model says, and a loaded machine only delays it (an
        // upper bound here failed under load: 843 ms for the big prompt)
        assertThat(smallMs).as("small TTFT, ms: 50 ms base").isGreaterThanOrEqualTo(50);
        // 2000 tokens more at 10,000 tok/s = +200 ms; without the prefill the big prompt would answer after the base
        assertThat(bigMs).as("big TTFT, ms: 50 ms base + 200 ms prefill").isGreaterThanOrEqualTo(250);
        JsonObject smallTimings = small.json().get(small.json().size() - 1).getJsonObject("timings");
        JsonObject bigTimings = big.json().get(big.json().size() - 1).getJsonObject("timings");
        assertThat(bigTimings.getInteger("prompt_n") - smallTimings.getInteger("prompt_n"))
                .as("prompt tokens the sim prefilled for the big prompt beyond the small one (%s, %s)", bigTimings,
                        smallTimings)
                .isGreaterThanOrEqualTo(1_900);
        assertThat(bigTimings.getDouble("prompt_ms")).as("the sim's own prefill time for the big prompt, ms (%s)",
                bigTimings).isGreaterThanOrEqualTo(250);
    }

    @Test
    void requestsBeyondTheSlotsQueue() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(20).batchSlots(1).streamDecodeTokPerS(100)
                .prefillTokPerS(0).build());
        Future<SseProbe.Result> a = SseProbe.post(http, sim.port(), SseProbe.body("a", 10, true));
        Future<SseProbe.Result> b = SseProbe.post(http, sim.port(), SseProbe.body("b", 10, true));
        SseProbe.Result ra = await(a);
        SseProbe.Result rb = await(b);
        SseProbe.Result first = ra.firstContentNs() < rb.firstContentNs() ? ra : rb;
        SseProbe.Result second = first == ra ? rb : ra;
        // the second waits for the first to finish (~20 + 90 ms) before its own 20 ms TTFT
        assertTrue(second.firstContentNs() >= first.endNs() - 5_000_000L,
                "second TTFT " + second.firstContentNs() / 1e6 + " ms, first end " + first.endNs() / 1e6 + " ms");
        JsonObject usage = second.json().get(second.json().size() - 1);
        assertTrue(usage.getJsonObject("timings").getDouble("queue_ms") >= 80, usage.encode());
    }

    /** Sends a stream on a client of its own (closing that client is the client going away); the answer is ignored. */
    private HttpClient openStream(SimEngine sim, String prompt) {
        HttpClient own = vertx.createHttpClient();
        own.request(io.vertx.core.http.HttpMethod.POST, sim.port(), "127.0.0.1", "/v1/chat/completions")
                .onSuccess(req -> req.putHeader("content-type", "application/json")
                        .send(SseProbe.body(prompt, 1000, true).toBuffer()));
        return own;
    }

    /**
     * Issue 30: a client that goes away (a cancelled stream) is counted as disconnected, whether it was decoding or
     * still queued for a slot, its slot is freed and its decoding stops, and /metrics exports the count. Before,
     * a client that left while queued was not counted, and /metrics had no such series.
     */
    @Test
    void clientsThatGoAwayAreCountedAndTheirStreamsStop() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).batchSlots(1).streamDecodeTokPerS(20)
                .prefillTokPerS(0).build());
        HttpClient decoding = openStream(sim, "a");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> sim.stats().tokens() > 0);
        HttpClient queued = openStream(sim, "b");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> sim.stats().queued() == 1);
        await(queued.close());
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(sim.stats().disconnected()).as("disconnected after the queued client left").isEqualTo(1);
            assertThat(sim.stats().queued()).as("queued").isZero();
        });
        await(decoding.close());
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(sim.stats().disconnected()).as("disconnected after the decoding client left").isEqualTo(2);
            assertThat(sim.stats().active()).as("streams holding a slot").isZero();
        });
        long tokens = sim.stats().tokens();
        String metrics = await(WebClient.create(vertx).get(sim.port(), "127.0.0.1", "/metrics").send()).bodyAsString();
        assertThat(metrics).as("/metrics").contains("capstream_sim:requests_disconnected_total 2");
        assertThat(sim.stats().tokens()).as("tokens after both left (no decoding for them)").isEqualTo(tokens);
        assertThat(sim.stats().completed()).as("completed").isZero();
    }

    @Test
    void decodeRateIsSharedAcrossStreams() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).prefillTokPerS(0).decodeTokPerS(400)
                .streamDecodeTokPerS(400).batchSlots(8).build());
        // one stream alone: 41 tokens at 400 tok/s -> ~100 ms after the first token, on the sim's own clock
        // (timings.predicted_ms; the client's reads of a stalled loop can bunch: see the decode spread test)
        SseProbe.Result alone = await(SseProbe.post(http, sim.port(), SseProbe.body("x", 41, true)));
        double aloneMs = last(alone).getJsonObject("timings").getDouble("predicted_ms");
        assertThat(aloneMs).as("alone decode, ms (lower bound only: load only delays)").isGreaterThanOrEqualTo(85);
        // four together share 400 tok/s: 100 tok/s each -> ~400 ms
        List<Future<SseProbe.Result>> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(SseProbe.post(http, sim.port(), SseProbe.body("y" + i, 41, true)));
        }
        for (Future<SseProbe.Result> f : four) {
            SseProbe.Result r = await(f);
            double ms = last(r).getJsonObject("timings").getDouble("predicted_ms");
            // unshared, each would take ~100 ms: at least 340 shows the 400 tok/s shared by four
            assertThat(ms).as("shared decode, ms (lower bound only: load only delays)").isGreaterThanOrEqualTo(340);
        }
    }

    @Test
    void decodeSpreadDrawsEachStreamsRateWithinTheSpread() throws Exception {
        SimConfig cfg = SimConfig.builder().ttftBaseMs(1).prefillTokPerS(0).streamDecodeTokPerS(200)
                .decodeSpread(0.5).seed(3).build();
        assertEquals(100.0, cfg.streamDecodeTokPerS(0.0), 1e-9);
        assertEquals(200.0, cfg.streamDecodeTokPerS(0.5), 1e-9);
        assertEquals(299.0, cfg.streamDecodeTokPerS(0.995), 1e-9);
        SimEngine sim = start(cfg);
        // 41 tokens: 40 after the first at 100..300 tok/s -> 133..400 ms of decode per stream, on the sim's own clock
        // (timings.predicted_ms): its ticks credit tokens by the time that passed, so a stall there only lengthens
        // it. Not on the client's: a stalled event loop reads the first token late, with the ones the sim's next
        // tick caught up on (0.76 ms between the client's first and last read, seen in a busy build)
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int i = 0; i < 8; i++) {
            SseProbe.Result r = await(SseProbe.post(http, sim.port(), SseProbe.body("z" + i, 41, true)));
            JsonObject timings = last(r).getJsonObject("timings");
            double ms = timings.getDouble("predicted_ms");
            assertThat(ms).as("decode on the sim's clock, ms (lower bound only: load only delays): %s", timings)
                    .isGreaterThanOrEqualTo(120);
            min = Math.min(min, ms);
            max = Math.max(max, ms);
        }
        assertTrue(max - min >= 40, "8 streams drawn from 100..300 tok/s must differ: " + min + ".." + max + " ms");
    }

    @Test
    void repeatedPrefixIsCached() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).build());
        String shared = "s".repeat(2560);
        JsonObject first = last(await(SseProbe.post(http, sim.port(), SseProbe.body(shared + "one", 2, true))));
        JsonObject second = last(await(SseProbe.post(http, sim.port(), SseProbe.body(shared + "two", 2, true))));
        assertEquals(0, first.getJsonObject("usage").getJsonObject("prompt_tokens_details").getInteger("cached_tokens"));
        // 2560 cached chars = 10 blocks -> floor(2560 / 3.4) = 752 tokens
        assertEquals(752, second.getJsonObject("usage").getJsonObject("prompt_tokens_details").getInteger("cached_tokens"));
    }

    private static JsonObject last(SseProbe.Result r) {
        List<JsonObject> j = r.json();
        return j.get(j.size() - 1);
    }

    @Test
    void nonStreamingReturnsOneCompletion() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).build());
        JsonObject body = await(WebClient.create(vertx).post(sim.port(), "127.0.0.1", "/v1/chat/completions")
                .sendJsonObject(SseProbe.body("hello world", 5, false))).bodyAsJsonObject();
        assertEquals("chat.completion", body.getString("object"));
        JsonObject choice = body.getJsonArray("choices").getJsonObject(0);
        assertEquals("assistant", choice.getJsonObject("message").getString("role"));
        assertThat(choice.getJsonObject("message").getString("content")).isNotEmpty();
        assertEquals("length", choice.getString("finish_reason"));
        assertEquals(5, body.getJsonObject("usage").getInteger("completion_tokens"));
    }

    @Test
    void badRequestsAnswer400() throws Exception {
        SimEngine sim = start(SimConfig.builder().maxModelLen(100).build());
        var resp = await(WebClient.create(vertx).post(sim.port(), "127.0.0.1", "/v1/chat/completions")
                .sendJsonObject(new JsonObject().put("model", "x")));
        assertEquals(400, resp.statusCode());
        resp = await(WebClient.create(vertx).post(sim.port(), "127.0.0.1", "/v1/chat/completions")
                .sendJsonObject(SseProbe.body(prompt(1000), 10, true)));
        assertEquals(400, resp.statusCode());
        assertThat(resp.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("maximum context length");
    }

    @Test
    void injectedErrorsAndRateLimits() throws Exception {
        SimEngine err = start(SimConfig.builder().errorRate(1).build());
        assertEquals(500, await(SseProbe.post(http, err.port(), SseProbe.body("a", 4, true))).status());
        SimEngine limited = start(SimConfig.builder().rateLimitRate(1).retryAfterS(7).build());
        SseProbe.Result r = await(SseProbe.post(http, limited.port(), SseProbe.body("a", 4, true)));
        assertEquals(429, r.status());
        assertEquals("7", r.retryAfter());
        assertEquals(1, limited.stats().rateLimited());
    }

    @Test
    void injectedCutEndsTheStreamWithoutDone() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).cutRate(1).build());
        SseProbe.Result r = await(SseProbe.post(http, sim.port(), SseProbe.body("a", 20, true)));
        assertNotNull(r.error(), "a cut connection must surface as an error");
        assertThat(r.lines()).noneMatch(l -> l.data().equals("[DONE]"));
        assertEquals(1, sim.stats().cuts());
    }

    @Test
    void injectedStallAndMalformedChunk() throws Exception {
        SimEngine stall = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).stallRate(1)
                .stallMs(300).build());
        SseProbe.Result r = await(SseProbe.post(http, stall.port(), SseProbe.body("a", 10, true)));
        // the sim's own count, and a lower bound the client cannot miss: [DONE] is sent after the 300 ms stall. The
        // largest gap between two reads is not one (a late read before the stall shortens it: 207 ms under load)
        assertThat(stall.stats().stalls()).as("stalls the sim injected").isEqualTo(1);
        assertThat(r.endNs()).as("ns from the request to the stream's end").isGreaterThanOrEqualTo(300_000_000L);
        assertEquals("[DONE]", r.lines().get(r.lines().size() - 1).data());
        SimEngine bad = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).malformedRate(1).build());
        SseProbe.Result m = await(SseProbe.post(http, bad.port(), SseProbe.body("a", 10, true)));
        assertEquals(1, m.lines().stream().filter(l -> l.data().startsWith("{") && !isJson(l.data())).count());
        assertEquals("[DONE]", m.lines().get(m.lines().size() - 1).data());
    }

    private static boolean isJson(String s) {
        try {
            new JsonObject(s);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Test
    void faultsAreReproducibleForASeed() throws Exception {
        List<Integer> a = statuses(7);
        List<Integer> b = statuses(7);
        assertEquals(a, b);
        assertThat(a).contains(500, 200);
    }

    private List<Integer> statuses(long seed) throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(1).streamDecodeTokPerS(1000).errorRate(0.5).seed(seed).build());
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            out.add(await(SseProbe.post(http, sim.port(), SseProbe.body("q", 2, true))).status());
        }
        sim.close();
        return out;
    }

    @Test
    void manyConcurrentStreamsAllComplete() throws Exception {
        SimEngine sim = start(SimConfig.builder().ttftBaseMs(50).prefillTokPerS(0).batchSlots(2000)
                .decodeTokPerS(200_000).streamDecodeTokPerS(100).build());
        List<Future<SseProbe.Result>> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            all.add(SseProbe.post(http, sim.port(), SseProbe.body("p" + i, 16, true)));
        }
        int done = 0;
        for (Future<SseProbe.Result> f : all) {
            SseProbe.Result r = await(f);
            if (r.status() == 200 && r.error() == null && "[DONE]".equals(r.lines().get(r.lines().size() - 1).data())) {
                done++;
            }
        }
        assertEquals(1000, done);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .untilAsserted(() -> assertEquals(1000, sim.stats().completed()));
        assertTrue(sim.stats().writes() < sim.stats().tokens() + 1000, "writes are batched per tick");
    }

    @Test
    void replicasShareOnePortAndEachHasItsOwnSlots() throws Exception {
        // One slot per replica, 300 ms to the first token: with 2 replicas, 2 requests run at once.
        SimEngine sim = start(SimConfig.builder().replicas(2).batchSlots(1).ttftBaseMs(300).prefillTokPerS(0)
                .streamDecodeTokPerS(1000).build());
        assertTrue(sim.port() > 0);
        List<Future<SseProbe.Result>> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(SseProbe.post(http, sim.port(), SseProbe.body("p" + i, 2, true)));
        }
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (Future<SseProbe.Result> f : all) {
            SseProbe.Result r = await(f);
            assertEquals(200, r.status());
            ids.add(r.json().get(0).getString("id"));
        }
        assertEquals(4, ids.size(), "completion ids stay unique across replicas: " + ids);
        // the engine counts a request after its last write, which can come after the client has read the end
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .untilAsserted(() -> assertEquals(4, sim.stats().completed(), "counters are shared by the replicas"));
        // two rounds, read from the engine's own TTFTs rather than the test's wall clock: two requests (one per
        // replica's slot) had their first token after one TTFT, the other two waited for a slot (one slot in all
        // would give TTFTs of one, two, three and four rounds)
        assertTrue(sim.stats().ttftPercentileMs(50) < 590, "two requests ran at once, one per replica: p50 "
                + sim.stats().ttftPercentileMs(50));
        assertTrue(sim.stats().ttftPercentileMs(100) >= 590, "the second round waited for a slot: "
                + sim.stats().ttftPercentileMs(100));
    }
}

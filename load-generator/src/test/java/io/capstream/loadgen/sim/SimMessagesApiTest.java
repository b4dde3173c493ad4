package io.capstream.loadgen.sim;

import static io.capstream.loadgen.sim.SimFrames.array;
import static io.capstream.loadgen.sim.SimFrames.text;
import static io.capstream.loadgen.sim.SimFrames.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sim's {@code POST /v1/messages}: Anthropic's Messages stream, usage, thinking, tool use, errors. */
class SimMessagesApiTest {
    @RegisterExtension
    final SimFixture fixture = new SimFixture(2000);

    private static JsonObject request(int maxTokens, JsonObject... messages) {
        return new JsonObject().put("model", "capstream-sim").put("messages", array((Object[]) messages))
                .put("max_tokens", maxTokens).put("stream", true);
    }

    private static void assertFramesWellFormed(SimFrames.Answer a) {
        assertThat(a.status()).as("status of %s", a.body()).isEqualTo(200);
        assertThat(a.contentType()).as("content type").startsWith("text/event-stream");
        assertThat(a.body()).doesNotContain("[DONE]");
        for (SimFrames.Frame f : a.frames()) {
            assertThat(f.event()).as("event name of %s", f.data()).isEqualTo(f.json().getString("type"));
        }
    }

    @Test
    void textStreamHasTheMessagesShapeAndUsage() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        String system = text("system", 170);
        JsonObject blocks = new JsonObject().put("role", "user").put("content",
                array(new JsonObject().put("type", "text").put("text", text("user", 170))));
        SimFrames.Answer a = fixture.post(sim, "/v1/messages",
                request(8, blocks).put("system", system));
        assertFramesWellFormed(a);
        List<String> expected = new ArrayList<>(List.of("message_start", "content_block_start", "ping"));
        for (int i = 0; i < 8; i++) {
            expected.add("content_block_delta");
        }
        expected.addAll(List.of("content_block_stop", "message_delta", "message_stop"));
        assertThat(a.types()).as("event types").isEqualTo(expected);

        JsonObject start = a.ofType("message_start").get(0).getJsonObject("message");
        assertThat(start.getString("id")).startsWith("msg_");
        JsonObject usage = start.getJsonObject("usage");
        assertThat(usage.getInteger("input_tokens") + usage.getInteger("cache_read_input_tokens"))
                .as("system + text block = 340 chars / 3.4: %s", usage).isEqualTo(100);
        assertThat(a.ofType("content_block_start").get(0).getJsonObject("content_block").getString("type"))
                .isEqualTo("text");
        assertThat(a.ofType("content_block_delta")).allSatisfy(d -> {
            assertThat(d.getInteger("index")).isZero();
            assertThat(d.getJsonObject("delta").getString("type")).isEqualTo("text_delta");
            assertThat(d.getJsonObject("delta").getString("text")).isNotEmpty();
        });
        JsonObject delta = a.ofType("message_delta").get(0);
        assertThat(delta.getJsonObject("delta").getString("stop_reason")).as("max_tokens reached: %s", delta)
                .isEqualTo("max_tokens");
        assertThat(delta.getJsonObject("usage").getInteger("output_tokens")).as("%s", delta).isEqualTo(8);
    }

    @Test
    void thinkingIsAThinkingBlockFirst() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().reasoningTokens(3));
        SimFrames.Answer a = fixture.post(sim, "/v1/messages", request(6, user("think"))
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 1024)));
        assertFramesWellFormed(a);
        List<JsonObject> starts = a.ofType("content_block_start");
        assertThat(starts).extracting(s -> s.getJsonObject("content_block").getString("type"))
                .containsExactly("thinking", "text");
        List<String> deltaTypes = a.ofType("content_block_delta").stream()
                .map(d -> d.getJsonObject("delta").getString("type")).toList();
        assertThat(deltaTypes).as("deltas").containsExactly("thinking_delta", "thinking_delta", "thinking_delta",
                "signature_delta", "text_delta", "text_delta", "text_delta");
        assertThat(a.ofType("message_delta").get(0).getJsonObject("usage").getInteger("output_tokens")).isEqualTo(6);
    }

    @Test
    void aToolCallIsAToolUseBlockWithInputJsonDeltas() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().toolCallRate(1));
        JsonObject tool = new JsonObject().put("name", "lookup").put("input_schema", new JsonObject()
                .put("type", "object").put("properties", new JsonObject().put("query", new JsonObject())));
        SimFrames.Answer a = fixture.post(sim, "/v1/messages",
                request(64, user("find it")).put("tools", array(tool)));
        assertFramesWellFormed(a);
        JsonObject block = a.ofType("content_block_start").get(0).getJsonObject("content_block");
        assertThat(block.getString("type")).as("block %s", block).isEqualTo("tool_use");
        assertThat(block.getString("name")).isEqualTo("lookup");
        assertThat(block.getString("id")).startsWith("toolu_");
        StringBuilder json = new StringBuilder();
        List<JsonObject> deltas = a.ofType("content_block_delta");
        deltas.forEach(d -> {
            assertThat(d.getJsonObject("delta").getString("type")).isEqualTo("input_json_delta");
            json.append(d.getJsonObject("delta").getString("partial_json"));
        });
        assertThat(new JsonObject(json.toString()).getString("query")).as("input %s", json).isNotEmpty();
        JsonObject end = a.ofType("message_delta").get(0);
        assertThat(end.getJsonObject("delta").getString("stop_reason")).isEqualTo("tool_use");
        assertThat(end.getJsonObject("usage").getInteger("output_tokens")).as("%s", end).isEqualTo(deltas.size() + 1);
    }

    @Test
    void aToolUseAndItsResultInTheHistoryHitTheCache() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().toolCallRate(1));
        JsonObject tool = new JsonObject().put("name", "lookup").put("input_schema", new JsonObject());
        String first = text("agent", 1000);
        SimFrames.Answer a1 = fixture.post(sim, "/v1/messages",
                request(64, user(first)).put("tools", array(tool)).put("stream", false));
        assertThat(a1.status()).as(a1.body()).isEqualTo(200);
        JsonObject use = a1.json().getJsonArray("content").getJsonObject(0);
        assertThat(use.getString("type")).isEqualTo("tool_use");
        JsonObject assistant = new JsonObject().put("role", "assistant").put("content", array(use));
        String result = text("result", 300);
        JsonObject toolResult = new JsonObject().put("role", "user").put("content", array(new JsonObject()
                .put("type", "tool_result").put("tool_use_id", use.getString("id")).put("content", result)));
        SimFrames.Answer a2 = fixture.post(sim, "/v1/messages",
                request(8, user(first), assistant, toolResult).put("tools", array(tool)).put("tool_choice",
                        new JsonObject().put("type", "none")));
        assertFramesWellFormed(a2);
        JsonObject usage = a2.ofType("message_start").get(0).getJsonObject("message").getJsonObject("usage");
        int history = first.length() + PromptText.toolCall("lookup", use.getJsonObject("input").encode()).length();
        assertThat(usage.getInteger("cache_read_input_tokens"))
                .as("the first prompt and the tool call (%d chars) are cached: %s", history, usage)
                .isEqualTo(TokenEstimator.cachedTokens(history / PrefixCache.BLOCK_CHARS * PrefixCache.BLOCK_CHARS));
        assertThat(usage.getInteger("input_tokens") + usage.getInteger("cache_read_input_tokens"))
                .as("the whole history: %s", usage).isEqualTo(TokenEstimator.tokens(history + result.length()));
        assertThat(a2.ofType("content_block_start").get(0).getJsonObject("content_block").getString("type"))
                .as("tool_choice none: a text answer").isEqualTo("text");
    }

    @Test
    void errorsHaveAnthropicsShape() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        SimFrames.Answer noMax = fixture.post(sim, "/v1/messages",
                new JsonObject().put("model", "m").put("messages", array(user("hi"))));
        assertThat(noMax.status()).as(noMax.body()).isEqualTo(400);
        assertThat(noMax.json().getString("type")).isEqualTo("error");
        assertThat(noMax.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request_error");
        assertThat(noMax.json().getJsonObject("error").getString("message")).contains("max_tokens");

        SimEngine failing = fixture.start(SimConfig.builder().errorRate(1));
        SimFrames.Answer a = fixture.post(failing, "/v1/messages", request(8, user("x")));
        assertFramesWellFormed(a);
        assertThat(a.types()).containsExactly("message_start", "error");
        assertThat(a.ofType("error").get(0).getJsonObject("error").getString("message"))
                .contains("simulated internal error");

        SimEngine limited = fixture.start(SimConfig.builder().rateLimitRate(1));
        SimFrames.Answer tooMany = fixture.post(limited, "/v1/messages", request(8, user("x")));
        assertThat(tooMany.status()).isEqualTo(429);
        assertThat(tooMany.retryAfter()).isEqualTo("1");
        assertThat(tooMany.json().getJsonObject("error").getString("type")).isEqualTo("rate_limit_error");
    }
}

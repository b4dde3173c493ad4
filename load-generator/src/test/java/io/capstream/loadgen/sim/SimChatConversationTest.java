package io.capstream.loadgen.sim;

import static io.capstream.loadgen.sim.SimFrames.array;
import static io.capstream.loadgen.sim.SimFrames.text;
import static io.capstream.loadgen.sim.SimFrames.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sim's chat completions in conversations: tool calls at the rate, history prefix hits, prefill of the rest. */
class SimChatConversationTest {
    private static final JsonObject TOOL = new JsonObject().put("type", "function").put("function", new JsonObject()
            .put("name", "search").put("parameters", new JsonObject().put("type", "object")
                    .put("properties", new JsonObject().put("q", new JsonObject().put("type", "string")))));

    @RegisterExtension
    final SimFixture fixture = new SimFixture(5000);

    private static JsonObject chat(int maxTokens, boolean stream, Object... messages) {
        JsonObject b = new JsonObject().put("model", "capstream-sim").put("messages", array(messages))
                .put("max_tokens", maxTokens).put("stream", stream);
        if (stream) {
            b.put("stream_options", new JsonObject().put("include_usage", true));
        }
        return b;
    }

    @Test
    void aToolCallStreamsInTheChatForm() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().toolCallRate(1));
        SimFrames.Answer a = fixture.post(sim, "/v1/chat/completions",
                chat(64, true, user("look it up")).put("tools", array(TOOL)));
        assertThat(a.status()).isEqualTo(200);
        List<SimFrames.Frame> frames = a.frames();
        assertThat(frames.get(frames.size() - 1).data()).isEqualTo("[DONE]");
        List<JsonObject> chunks = new ArrayList<>();
        frames.subList(0, frames.size() - 1).forEach(f -> chunks.add(f.json()));
        List<JsonObject> calls = new ArrayList<>();
        String finish = null;
        for (JsonObject c : chunks) {
            JsonArray choices = c.getJsonArray("choices");
            if (choices.isEmpty()) {
                continue;
            }
            JsonObject delta = choices.getJsonObject(0).getJsonObject("delta");
            if (delta.containsKey("tool_calls")) {
                calls.add(delta.getJsonArray("tool_calls").getJsonObject(0));
            }
            if (choices.getJsonObject(0).getString("finish_reason") != null) {
                finish = choices.getJsonObject(0).getString("finish_reason");
            }
            assertThat(delta.getString("content")).as("no text in %s", c).isNullOrEmpty();
        }
        assertThat(finish).isEqualTo("tool_calls");
        assertThat(calls).as("tool-call deltas").hasSizeGreaterThan(3)
                .allSatisfy(t -> assertThat(t.getInteger("index")).isZero());
        JsonObject first = calls.get(0);
        assertThat(first.getString("id")).as("first delta %s", first).startsWith("call_");
        assertThat(first.getJsonObject("function").getString("name")).isEqualTo("search");
        assertThat(calls.subList(1, calls.size())).as("the id only on the first delta")
                .allSatisfy(t -> assertThat(t.containsKey("id")).isFalse());
        StringBuilder args = new StringBuilder();
        calls.forEach(t -> args.append(t.getJsonObject("function").getString("arguments")));
        assertThat(new JsonObject(args.toString()).getString("q")).as("arguments %s", args).isNotEmpty();
        JsonObject usage = chunks.get(chunks.size() - 1).getJsonObject("usage");
        assertThat(usage.getInteger("completion_tokens")).as("the call's tokens: %s", usage).isEqualTo(calls.size());
    }

    @Test
    void theToolCallRateIsTheShareOfAnswersToRequestsWithToolsAndSeeded() throws Exception {
        List<Boolean> runA = toolCalls(7, 200, true);
        List<Boolean> runB = toolCalls(7, 200, true);
        long calls = runA.stream().filter(b -> b).count();
        assertThat(calls).as("tool calls of 200 answers at rate 0.3").isBetween(40L, 80L);
        assertThat(runB).as("the same seed gives the same answers").isEqualTo(runA);
        assertThat(toolCalls(7, 50, false)).as("requests without tools get text").doesNotContain(true);
    }

    private List<Boolean> toolCalls(long seed, int n, boolean withTools) throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().toolCallRate(0.3).seed(seed));
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JsonObject body = chat(4, false, user("q" + i));
            if (withTools) {
                body.put("tools", array(TOOL));
            }
            JsonObject r = fixture.post(sim, "/v1/chat/completions", body).json();
            JsonObject choice = r.getJsonArray("choices").getJsonObject(0);
            boolean call = "tool_calls".equals(choice.getString("finish_reason"));
            assertThat(call).as("finish_reason and tool_calls agree: %s", r)
                    .isEqualTo(choice.getJsonObject("message").containsKey("tool_calls"));
            out.add(call);
        }
        assertThat(sim.stats().toolCalls()).isEqualTo(out.stream().filter(b -> b).count());
        sim.close();
        return out;
    }

    @Test
    void theNextTurnHitsThePreviousPromptAndAnswerAndPrefillsOnlyTheRest() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        String first = text("turn-one", 1024);
        JsonObject r1 = fixture.post(sim, "/v1/chat/completions", chat(100, false, user(first))).json();
        String answer = r1.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content");
        assertThat(r1.getJsonObject("usage").getJsonObject("prompt_tokens_details").getInteger("cached_tokens"))
                .as("a new prompt").isZero();

        String next = text("turn-two", 200);
        JsonObject assistant = new JsonObject().put("role", "assistant").put("content", answer);
        JsonObject r2 = fixture.post(sim, "/v1/chat/completions",
                chat(8, false, user(first), assistant, user(next))).json();
        JsonObject usage = r2.getJsonObject("usage");
        int history = first.length() + answer.length();
        int cached = usage.getJsonObject("prompt_tokens_details").getInteger("cached_tokens");
        assertThat(usage.getInteger("prompt_tokens")).as("the whole history: %s", usage)
                .isEqualTo(TokenEstimator.tokens(history + next.length()));
        assertThat(cached).as("the previous prompt and answer (%d chars), not only the prompt: %s", history, usage)
                .isEqualTo(TokenEstimator.cachedTokens(history / PrefixCache.BLOCK_CHARS * PrefixCache.BLOCK_CHARS))
                .isGreaterThan(TokenEstimator.cachedTokens(first.length()));
        assertThat(r2.getJsonObject("timings").getInteger("prompt_n")).as("prefilled: the uncached part: %s", r2)
                .isEqualTo(usage.getInteger("prompt_tokens") - cached);

        // an agent turn: the assistant's tool call and the tool's result re-sent
        SimEngine agent = fixture.start(SimConfig.builder().toolCallRate(1));
        JsonObject c1 = fixture.post(agent, "/v1/chat/completions",
                chat(64, false, user(first)).put("tools", array(TOOL))).json();
        JsonObject callMessage = c1.getJsonArray("choices").getJsonObject(0).getJsonObject("message");
        JsonObject call = callMessage.getJsonArray("tool_calls").getJsonObject(0);
        String result = text("tool-result", 300);
        JsonObject toolMessage = new JsonObject().put("role", "tool").put("tool_call_id", call.getString("id"))
                .put("content", result);
        JsonObject c2 = fixture.post(agent, "/v1/chat/completions",
                chat(8, false, user(first), callMessage, toolMessage).put("tools", array(TOOL))).json();
        int agentHistory = first.length() + PromptText.toolCall("search",
                call.getJsonObject("function").getString("arguments")).length();
        JsonObject u2 = c2.getJsonObject("usage");
        assertThat(u2.getJsonObject("prompt_tokens_details").getInteger("cached_tokens"))
                .as("the prompt and the tool call (%d chars): %s", agentHistory, u2)
                .isEqualTo(TokenEstimator.cachedTokens(agentHistory / PrefixCache.BLOCK_CHARS * PrefixCache.BLOCK_CHARS));
        assertThat(u2.getInteger("prompt_tokens")).isEqualTo(TokenEstimator.tokens(agentHistory + result.length()));
    }
}

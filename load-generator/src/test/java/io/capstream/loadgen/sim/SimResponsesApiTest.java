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

/** The sim's {@code POST /v1/responses}: the OpenAI Responses API's stream, usage, tool calls, previous_response_id. */
class SimResponsesApiTest {
    @RegisterExtension
    final SimFixture fixture = new SimFixture(2000);

    private static JsonObject request(Object input, int maxTokens) {
        return new JsonObject().put("model", "capstream-sim").put("input", input).put("max_output_tokens", maxTokens)
                .put("stream", true);
    }

    private static void assertFramesWellFormed(SimFrames.Answer a) {
        assertThat(a.status()).as("status of %s", a.body()).isEqualTo(200);
        assertThat(a.contentType()).as("content type").startsWith("text/event-stream");
        assertThat(a.body()).as("the Responses API ends without [DONE]").doesNotContain("[DONE]");
        List<SimFrames.Frame> frames = a.frames();
        for (int i = 0; i < frames.size(); i++) {
            JsonObject data = frames.get(i).json();
            assertThat(frames.get(i).event()).as("event name of frame %d", i).isEqualTo(data.getString("type"));
            assertThat(data.getInteger("sequence_number")).as("sequence_number of frame %d: %s", i, data)
                    .isEqualTo(i);
        }
    }

    @Test
    void textStreamHasTheResponsesShapeAndUsage() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        SimFrames.Answer a = fixture.post(sim, "/v1/responses", request(text("a", 340), 8));
        assertFramesWellFormed(a);
        List<String> expected = new ArrayList<>(List.of("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added"));
        for (int i = 0; i < 8; i++) {
            expected.add("response.output_text.delta");
        }
        expected.addAll(List.of("response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.completed"));
        assertThat(a.types()).as("event types").isEqualTo(expected);

        StringBuilder deltas = new StringBuilder();
        a.ofType("response.output_text.delta").forEach(e -> deltas.append(e.getString("delta")));
        assertThat(a.ofType("response.output_text.done").get(0).getString("text")).as("done text")
                .isEqualTo(deltas.toString());
        JsonObject completed = a.ofType("response.completed").get(0);
        assertThat(completed.getJsonObject("timings").getInteger("prompt_n")).as("llama.cpp-style timings: %s",
                completed).isEqualTo(100);
        JsonObject response = completed.getJsonObject("response");
        assertThat(response.getString("id")).as("response id").startsWith("resp_");
        assertThat(response.getString("status")).isEqualTo("completed");
        assertThat(response.getJsonArray("output").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getString("text")).as("completed output text").isEqualTo(deltas.toString());
        JsonObject usage = response.getJsonObject("usage");
        assertThat(usage.getInteger("input_tokens")).as("340 chars / 3.4: %s", usage).isEqualTo(100);
        assertThat(usage.getInteger("output_tokens")).as("usage %s", usage).isEqualTo(8);
        assertThat(usage.getInteger("total_tokens")).as("usage %s", usage).isEqualTo(108);
        assertThat(usage.getJsonObject("input_tokens_details").getInteger("cached_tokens")).as("usage %s", usage)
                .isZero();
        assertThat(usage.getJsonObject("output_tokens_details").getInteger("reasoning_tokens")).as("usage %s", usage)
                .isZero();
    }

    @Test
    void reasoningComesAsAReasoningItemBeforeTheMessage() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().reasoningTokens(3));
        SimFrames.Answer a = fixture.post(sim, "/v1/responses",
                request("think", 6).put("reasoning", new JsonObject().put("effort", "low")));
        assertFramesWellFormed(a);
        assertThat(a.ofType("response.reasoning_text.delta")).as("reasoning deltas").hasSize(3)
                .allSatisfy(e -> assertThat(e.getInteger("output_index")).isZero());
        assertThat(a.ofType("response.output_text.delta")).as("content deltas").hasSize(3)
                .allSatisfy(e -> assertThat(e.getInteger("output_index")).isEqualTo(1));
        assertThat(a.types().indexOf("response.reasoning_text.done"))
                .as("the reasoning item ends before the message starts: %s", a.types())
                .isLessThan(a.types().indexOf("response.content_part.added"));
        JsonObject usage = a.ofType("response.completed").get(0).getJsonObject("response").getJsonObject("usage");
        assertThat(usage.getJsonObject("output_tokens_details").getInteger("reasoning_tokens")).as("usage %s", usage)
                .isEqualTo(3);
        assertThat(usage.getInteger("output_tokens")).as("usage %s", usage).isEqualTo(6);
    }

    @Test
    void aToolCallIsAFunctionCallItemWithArgumentDeltas() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().toolCallRate(1));
        JsonObject tool = new JsonObject().put("type", "function").put("name", "get_weather")
                .put("parameters", new JsonObject().put("type", "object")
                        .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string"))));
        SimFrames.Answer a = fixture.post(sim, "/v1/responses",
                request("weather?", 64).put("tools", array(tool)));
        assertFramesWellFormed(a);
        JsonObject item = a.ofType("response.output_item.added").get(0).getJsonObject("item");
        assertThat(item.getString("type")).as("item %s", item).isEqualTo("function_call");
        assertThat(item.getString("name")).as("item %s", item).isEqualTo("get_weather");
        assertThat(item.getString("call_id")).as("item %s", item).startsWith("call_");
        List<JsonObject> deltas = a.ofType("response.function_call_arguments.delta");
        assertThat(deltas).as("argument fragments").hasSizeGreaterThan(2);
        StringBuilder args = new StringBuilder();
        deltas.forEach(d -> args.append(d.getString("delta")));
        assertThat(new JsonObject(args.toString()).getString("city")).as("arguments %s", args).isNotEmpty();
        assertThat(a.ofType("response.function_call_arguments.done").get(0).getString("arguments"))
                .isEqualTo(args.toString());
        assertThat(a.ofType("response.output_text.delta")).as("no text besides the call").isEmpty();
        JsonObject usage = a.ofType("response.completed").get(0).getJsonObject("response").getJsonObject("usage");
        assertThat(usage.getInteger("output_tokens")).as("the call's start and its fragments: %s", usage)
                .isEqualTo(deltas.size() + 1);
    }

    @Test
    void previousResponseIdContinuesTheStoredConversation() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        String first = text("conversation-one", 1024);
        SimFrames.Answer a1 = fixture.post(sim, "/v1/responses", request(first, 100));
        JsonObject r1 = a1.ofType("response.completed").get(0).getJsonObject("response");
        String answer = r1.getJsonArray("output").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getString("text");
        String next = text("second turn", 100);

        SimFrames.Answer a2 = fixture.post(sim, "/v1/responses",
                request(array(user(next)), 8).put("previous_response_id", r1.getString("id")));
        assertFramesWellFormed(a2);
        JsonObject r2 = a2.ofType("response.completed").get(0).getJsonObject("response");
        JsonObject usage = r2.getJsonObject("usage");
        int historyChars = first.length() + answer.length();
        assertThat(usage.getInteger("input_tokens")).as("stored history + new input: %s", usage)
                .isEqualTo(TokenEstimator.tokens(historyChars + next.length()));
        assertThat(usage.getJsonObject("input_tokens_details").getInteger("cached_tokens"))
                .as("the stored prompt and answer are cached (%d chars): %s", historyChars, usage)
                .isEqualTo(TokenEstimator.cachedTokens(historyChars / PrefixCache.BLOCK_CHARS * PrefixCache.BLOCK_CHARS));
        assertThat(r2.getString("previous_response_id")).isEqualTo(r1.getString("id"));

        // the same conversation re-sent by the client counts the same
        JsonObject assistant = new JsonObject().put("type", "message").put("role", "assistant")
                .put("content", array(new JsonObject().put("type", "output_text").put("text", answer)));
        SimFrames.Answer a3 = fixture.post(sim, "/v1/responses",
                request(array(user(first), assistant, user(next)), 8));
        JsonObject u3 = a3.ofType("response.completed").get(0).getJsonObject("response").getJsonObject("usage");
        assertThat(u3.getInteger("input_tokens")).as("client-side history: %s", u3)
                .isEqualTo(usage.getInteger("input_tokens"));

        SimFrames.Answer unknown = fixture.post(sim, "/v1/responses",
                request("hi", 8).put("previous_response_id", "resp_nope"));
        assertThat(unknown.status()).as("unknown previous_response_id: %s", unknown.body()).isEqualTo(400);
        JsonObject err = unknown.json().getJsonObject("error");
        assertThat(err.getString("message")).contains("resp_nope");
        assertThat(err.getString("param")).isEqualTo("previous_response_id");
    }

    @Test
    void faultsComeInTheResponsesForm() throws Exception {
        SimEngine failing = fixture.start(SimConfig.builder().errorRate(1));
        SimFrames.Answer a = fixture.post(failing, "/v1/responses", request("x", 8));
        assertFramesWellFormed(a);
        assertThat(a.types()).as("types").containsExactly("response.created", "response.in_progress",
                "response.failed");
        JsonObject r = a.ofType("response.failed").get(0).getJsonObject("response");
        assertThat(r.getString("status")).isEqualTo("failed");
        assertThat(r.getJsonObject("error").getString("message")).contains("simulated internal error");

        SimFrames.Answer plain = fixture.post(failing, "/v1/responses", request("x", 8)
                .put("stream", false));
        assertThat(plain.status()).as("non-streamed: %s", plain.body()).isEqualTo(500);
        assertThat(plain.json().getJsonObject("error").getString("message")).contains("simulated internal error");

        SimEngine limited = fixture.start(SimConfig.builder().rateLimitRate(1).retryAfterS(3));
        SimFrames.Answer tooMany = fixture.post(limited, "/v1/responses", request("x", 8));
        assertThat(tooMany.status()).isEqualTo(429);
        assertThat(tooMany.retryAfter()).isEqualTo("3");
        assertThat(tooMany.json().getJsonObject("error").getString("message")).contains("rate limit");

        SimFrames.Answer bad = fixture.post(limited, "/v1/responses",
                new JsonObject().put("model", "m").put("stream", true));
        assertThat(bad.status()).as("no input: %s", bad.body()).isEqualTo(400);
        assertThat(bad.json().getJsonObject("error").getString("message")).contains("'input'");
    }

    @Test
    void aNonStreamedResponseIsTheCompletedResponseObject() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        SimFrames.Answer a = fixture.post(sim, "/v1/responses", request("hello", 5).put("stream", false));
        assertThat(a.status()).isEqualTo(200);
        JsonObject r = a.json();
        assertThat(r.getString("object")).isEqualTo("response");
        assertThat(r.getString("status")).isEqualTo("completed");
        assertThat(r.getJsonObject("usage").getInteger("output_tokens")).isEqualTo(5);
        assertThat(r.getJsonArray("output").getJsonObject(0).getString("type")).isEqualTo("message");
    }
}

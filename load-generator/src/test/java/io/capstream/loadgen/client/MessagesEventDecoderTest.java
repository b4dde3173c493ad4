package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessagesEventDecoderTest {
    private final ChunkAccumulator acc = new ChunkAccumulator(1_000, ApiEndpoint.MESSAGES, false, false);
    private final SseLineSplitter splitter = new SseLineSplitter(acc);

    private boolean at(long now, String text) {
        acc.at(now);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return splitter.feed(b, 0, b.length);
    }

    private static String event(String type, String json) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\"" + (json.isEmpty() ? "" : "," + json) + "}\n\n";
    }

    private static String start(String usage) {
        return event("message_start", "\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"content\":[],\"model\":\"m\",\"stop_reason\":null,\"usage\":" + usage + "}");
    }

    private static String delta(int index, String type, String member, String text) {
        return event("content_block_delta", "\"index\":" + index + ",\"delta\":{\"type\":\"" + type + "\",\""
                + member + "\":\"" + text + "\"}");
    }

    @Test
    void thinkingThenTextWithUsageFromStartAndDeltaAndPingIsNotOutput() {
        at(1_050, start("{\"cache_read_input_tokens\":8,\"input_tokens\":4,\"output_tokens\":0}"));
        at(1_060, event("ping", ""));
        at(1_100, event("content_block_start", "\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}"));
        at(1_200, delta(0, "thinking_delta", "thinking", "hmm"));
        at(1_250, delta(0, "signature_delta", "signature", "sig"));
        at(1_260, event("content_block_stop", "\"index\":0"));
        at(1_300, event("content_block_start", "\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}"));
        at(1_350, event("ping", ""));
        at(1_400, delta(1, "text_delta", "text", "Hel"));
        at(1_500, delta(1, "text_delta", "text", "lo"));
        at(1_550, delta(1, "text_delta", "text", ""));
        at(1_600, event("content_block_stop", "\"index\":1"));
        at(1_700, event("message_delta", "\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},"
                + "\"usage\":{\"output_tokens\":7}"));
        boolean more = at(1_800, event("message_stop", ""));

        assertThat(more).as("message_stop stops reading, as [DONE] does").isFalse();
        assertThat(acc.done()).as("done").isTrue();
        assertThat(acc.failure()).as("failure").isNull();
        assertThat(acc.ttfoNs()).as("TTFO: the thinking delta, not the ping").isEqualTo(200);
        assertThat(acc.ttftNs()).as("TTFT: the first text_delta").isEqualTo(400);
        assertThat(acc.reasoningChunks()).as("thinking deltas (the signature is not one)").isEqualTo(1);
        assertThat(acc.contentChunks()).as("non-empty text deltas").isEqualTo(2);
        assertThat(acc.promptTokens()).as("input_tokens + cache_read_input_tokens").isEqualTo(12);
        assertThat(acc.cachedTokens()).as("cache_read_input_tokens").isEqualTo(8);
        assertThat(acc.completionTokens()).as("message_delta's output_tokens").isEqualTo(7);
        // issue 33 (fresh-user pass): message_start's message.id is the response id of the server's view
        assertThat(acc.serverReply().responseId()).as("response id from message_start").isEqualTo("msg_1");
        assertThat(acc.finishReason()).as("max_tokens in chat's words").isEqualTo("length");
        assertThat(acc.outputChunkGaps().size()).as("ping adds no output chunk gap").isEqualTo(2);
    }

    @Test
    void onlyPingsAndTheEndIsNoVisibleContent() {
        at(1_100, start("{\"input_tokens\":4,\"output_tokens\":0}"));
        at(1_200, event("ping", ""));
        at(1_300, event("message_delta", "\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":0}"));
        assertThat(at(1_400, event("message_stop", ""))).as("ends").isFalse();
        assertThat(acc.ttfoNs()).as("no output").isEqualTo(-1);
        assertThat(acc.visibleContentFailure()).as("no visible content").isEqualTo(ChunkErrors.noVisibleContent());
        assertThat(acc.finishReason()).as("end_turn is stop").isEqualTo("stop");
        assertThat(acc.cachedTokens()).as("no cache_read_input_tokens").isEqualTo(-1);
    }

    @Test
    void errorEventFailsWithItsMessage() {
        at(1_100, start("{\"input_tokens\":4,\"output_tokens\":0}"));
        boolean more = at(1_200, event("error", "\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}"));
        assertThat(more).as("an error stops reading").isFalse();
        assertThat(acc.failure()).as("failure").isNotNull();
        assertThat(acc.failure().message()).as("the server's message")
                .isEqualTo(ChunkErrors.IN_STREAM_ERROR + "Overloaded (type=overloaded_error)");
        assertThat(acc.promptTokens()).as("prompt tokens from message_start are kept").isEqualTo(4);
    }

    @Test
    void llamaCppErrorFrameFailsWithItsMessage() {
        boolean more = at(1_200, "event: error\ndata: {\"code\":500,\"message\":\"context shift disabled\","
                + "\"type\":\"server_error\"}\n\n");
        assertThat(more).as("stops").isFalse();
        assertThat(acc.failure().message()).as("message")
                .isEqualTo(ChunkErrors.IN_STREAM_ERROR + "context shift disabled (type=server_error, code=500)");
    }

    @Test
    void aToolUseStreamWithToolsIsOutputAndTheReplyHasTheCall() {
        ChunkAccumulator a = new ChunkAccumulator(1_000, ApiEndpoint.MESSAGES, true, true);
        SseLineSplitter s = new SseLineSplitter(a);
        String stream = start("{\"input_tokens\":20,\"output_tokens\":0}")
                + event("content_block_start", "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}")
                + delta(0, "text_delta", "text", "Let me check.")
                + event("content_block_stop", "\"index\":0")
                + event("content_block_start", "\"index\":1,\"content_block\":{\"type\":\"tool_use\","
                + "\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}")
                + delta(1, "input_json_delta", "partial_json", "{\\\"city\\\": ")
                + delta(1, "input_json_delta", "partial_json", "\\\"Paris\\\"}")
                + event("content_block_stop", "\"index\":1")
                + event("message_delta", "\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":12}")
                + event("message_stop", "");
        a.at(1_300);
        byte[] b = stream.getBytes(StandardCharsets.UTF_8);
        assertThat(s.feed(b, 0, b.length)).as("ends at message_stop").isFalse();
        assertThat(a.failure()).as("failure").isNull();
        assertThat(a.toolCallChunks()).as("the tool_use block and two input_json deltas").isEqualTo(3);
        assertThat(a.contentChunks()).as("the text").isEqualTo(1);
        assertThat(a.reply()).as("reply").isEqualTo(new Reply("Let me check.",
                java.util.List.of(new ToolCall("toolu_1", "get_weather", "{\"city\": \"Paris\"}")), null));
        assertThat(a.completionTokens()).as("output tokens").isEqualTo(12);
        assertThat(a.finishReason()).as("finish").isEqualTo("tool_calls");
    }

    @Test
    void toolUseBlockAndInputJsonDeltasAreToolCallDeltas() {
        MessagesEventDecoder d = new MessagesEventDecoder();
        DecodedChunk c = new DecodedChunk(true);
        ResponsesEventDecoderTest.decode(d, c, "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}");
        assertThat(c.toolCallDeltas()).as("the tool_use block starts a call").isEqualTo(1);
        assertThat(c.keptToolCallIndex(0)).as("the block's index").isEqualTo(1);
        assertThat(c.keptToolCallId(0)).as("id").isEqualTo("toolu_1");
        assertThat(c.keptToolCallName(0)).as("name").isEqualTo("get_weather");
        ResponsesEventDecoderTest.decode(d, c, "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
                + "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\":\"}}");
        assertThat(c.toolCallDeltas()).as("input_json_delta").isEqualTo(1);
        assertThat(c.keptToolCallIndex(0)).as("index").isEqualTo(1);
        assertThat(c.keptToolCallArguments(0)).as("fragment").isEqualTo("{\"city\":");
        assertThat(c.contentDeltas()).as("not content").isZero();
        ResponsesEventDecoderTest.decode(d, c, "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
                + "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}");
        assertThat(c.toolCallDeltas()).as("an empty fragment is no delta").isZero();
        ResponsesEventDecoderTest.decode(d, c, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
                + "\"usage\":{\"output_tokens\":9}}");
        assertThat(c.finishReason()).as("tool_use in chat's words").isEqualTo("tool_calls");
        assertThat(c.completionTokens()).as("output tokens").isEqualTo(9);
        assertThat(c.promptTokens()).as("no message_start: unknown").isEqualTo(-1);
        ResponsesEventDecoderTest.decode(d, c, "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"Hi\"}}");
        assertThat(c.contentText().toString()).as("text kept for the reply").isEqualTo("Hi");
    }
}

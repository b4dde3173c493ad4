package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.SseEventAssembler.Parse;
import io.capstream.loadgen.workload.ApiEndpoint;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponsesEventDecoderTest {
    private final ChunkAccumulator acc = new ChunkAccumulator(1_000, ApiEndpoint.RESPONSES, false, false);
    private final SseLineSplitter splitter = new SseLineSplitter(acc);

    /** Feeds text arriving at absolute time {@code now}; @return whether reading goes on. */
    private boolean at(long now, String text) {
        acc.at(now);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return splitter.feed(b, 0, b.length);
    }

    private static String event(String type, String json) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\"" + (json.isEmpty() ? "" : "," + json) + "}\n\n";
    }

    private static String completed(String usage) {
        return event("response.completed", "\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":"
                + "\"completed\",\"output\":[],\"usage\":" + usage + "},\"sequence_number\":9");
    }

    @Test
    void textAndReasoningWithUsageFromCompletedWhichEndsTheStream() {
        at(1_050, event("response.created", "\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"},"
                + "\"sequence_number\":0"));
        at(1_100, event("response.output_item.added", "\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\","
                + "\"summary\":[]},\"output_index\":0,\"sequence_number\":1"));
        at(1_200, event("response.reasoning_text.delta", "\"delta\":\"hmm\",\"item_id\":\"rs_1\",\"sequence_number\":2"));
        at(1_250, event("response.reasoning_summary_text.delta", "\"delta\":\"so\",\"item_id\":\"rs_1\","
                + "\"sequence_number\":3"));
        at(1_300, event("response.output_text.delta", "\"delta\":\"\",\"item_id\":\"msg_1\",\"sequence_number\":4"));
        at(1_400, event("response.output_text.delta", "\"delta\":\"Hel\",\"item_id\":\"msg_1\",\"sequence_number\":5"));
        at(1_500, event("response.output_text.delta", "\"delta\":\"lo\",\"item_id\":\"msg_1\",\"sequence_number\":6"));
        at(1_600, event("response.output_text.done", "\"text\":\"Hello\",\"item_id\":\"msg_1\",\"sequence_number\":7"));
        boolean more = at(1_700, completed("{\"input_tokens\":12,\"output_tokens\":5,\"total_tokens\":17,"
                + "\"input_tokens_details\":{\"cached_tokens\":8}}"));

        assertThat(more).as("response.completed stops reading, as [DONE] does").isFalse();
        assertThat(acc.done()).as("done after response.completed").isTrue();
        assertThat(acc.failure()).as("failure").isNull();
        assertThat(acc.visibleContentFailure()).as("content arrived").isNull();
        assertThat(acc.ttfoNs()).as("TTFO: the first reasoning delta").isEqualTo(200);
        // issue 33: response.created's response.id is the response id of the server's view
        assertThat(acc.serverReply().responseId()).as("response id from response.created").isEqualTo("resp_1");
        assertThat(acc.ttftNs()).as("TTFT: the first non-empty output_text delta").isEqualTo(400);
        assertThat(acc.reasoningChunks()).as("reasoning_text and reasoning_summary_text deltas").isEqualTo(2);
        assertThat(acc.contentChunks()).as("non-empty output_text deltas").isEqualTo(2);
        assertThat(acc.promptTokens()).as("usage.input_tokens").isEqualTo(12);
        assertThat(acc.completionTokens()).as("usage.output_tokens").isEqualTo(5);
        assertThat(acc.cachedTokens()).as("usage.input_tokens_details.cached_tokens").isEqualTo(8);
        assertThat(acc.finishReason()).as("finish reason in chat's words").isEqualTo("stop");
        assertThat(acc.dataLines()).as("data lines").isEqualTo(9);
    }

    @Test
    void endOfBodyWithoutCompletedLeavesTheStreamNotDone() {
        at(1_100, event("response.output_text.delta", "\"delta\":\"a\""));
        assertThat(acc.onEnd()).as("nothing pending").isTrue();
        assertThat(acc.done()).as("no terminal event yet").isFalse();
        assertThat(acc.contentChunks()).as("content").isEqualTo(1);
    }

    @Test
    void incompleteForMaxOutputTokensIsLengthAndEnds() {
        at(1_100, event("response.output_text.delta", "\"delta\":\"a\""));
        boolean more = at(1_200, event("response.incomplete", "\"response\":{\"id\":\"resp_2\",\"status\":"
                + "\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":"
                + "{\"input_tokens\":3,\"output_tokens\":16}}"));
        assertThat(more).as("response.incomplete ends the stream").isFalse();
        assertThat(acc.finishReason()).as("max_output_tokens is chat's length").isEqualTo("length");
        assertThat(acc.completionTokens()).as("output tokens").isEqualTo(16);
        assertThat(acc.cachedTokens()).as("no cached tokens reported").isEqualTo(-1);
    }

    @Test
    void failedEventFailsWithTheServersMessage() {
        at(1_100, event("response.output_text.delta", "\"delta\":\"a\""));
        boolean more = at(1_200, event("response.failed", "\"response\":{\"id\":\"resp_3\",\"status\":\"failed\","
                + "\"error\":{\"code\":\"server_error\",\"message\":\"The model crashed\"}}"));
        assertThat(more).as("a failure stops reading").isFalse();
        assertThat(acc.failure()).as("failure").isNotNull();
        assertThat(acc.failure().message()).as("the server's message")
                .isEqualTo(ChunkErrors.IN_STREAM_ERROR + "The model crashed (code=server_error)");
        assertThat(acc.failure().type()).as("type").isEqualTo(ErrorTypes.VALUE_ERROR);
    }

    @Test
    void errorEventFailsWithItsMessage() {
        boolean more = at(1_100, event("error", "\"code\":\"rate_limit_exceeded\",\"message\":\"Slow down\","
                + "\"param\":null,\"sequence_number\":1"));
        assertThat(more).as("an error event stops reading").isFalse();
        assertThat(acc.failure().message()).as("the server's message")
                .isEqualTo(ChunkErrors.IN_STREAM_ERROR + "Slow down (code=rate_limit_exceeded)");
    }

    @Test
    void llamaCppMidStreamErrorObjectFails() {
        boolean more = at(1_100, "data: {\"error\":{\"code\":500,\"message\":\"slot unavailable\","
                + "\"type\":\"server_error\"}}\n\n");
        assertThat(more).as("stops").isFalse();
        assertThat(acc.failure().message()).as("message")
                .isEqualTo(ChunkErrors.IN_STREAM_ERROR + "slot unavailable (type=server_error, code=500)");
    }

    @Test
    void functionCallItemAndArgumentDeltasAreToolCallDeltasAndTheResponseIdIsKept() {
        ResponsesEventDecoder d = new ResponsesEventDecoder();
        DecodedChunk c = new DecodedChunk(true);
        decode(d, c, "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\"}}");
        assertThat(c.keptResponseId()).as("response id from response.created").isEqualTo("resp_9");

        decode(d, c, "{\"type\":\"response.output_item.added\",\"item\":{\"id\":\"fc_a\",\"arguments\":\"\","
                + "\"call_id\":\"call_a\",\"name\":\"get_weather\",\"type\":\"function_call\"}}");
        assertThat(c.toolCallDeltas()).as("the function_call item starts a call").isEqualTo(1);
        assertThat(c.keptToolCallIndex(0)).as("index").isZero();
        assertThat(c.keptToolCallId(0)).as("call_id, not the item id").isEqualTo("call_a");
        assertThat(c.keptToolCallName(0)).as("name").isEqualTo("get_weather");
        assertThat(c.keptToolCallArguments(0)).as("empty arguments are none").isNull();

        decode(d, c, "{\"type\":\"response.output_item.added\",\"output_index\":3,\"item\":{\"id\":\"fc_b\","
                + "\"call_id\":\"call_b\",\"name\":\"f\",\"type\":\"function_call\"}}");
        decode(d, c, "{\"type\":\"response.function_call_arguments.delta\",\"delta\":\"{\\\"city\\\"\","
                + "\"item_id\":\"fc_a\"}");
        assertThat(c.toolCallDeltas()).as("an arguments delta").isEqualTo(1);
        assertThat(c.keptToolCallIndex(0)).as("matched by item_id to the first call").isZero();
        assertThat(c.keptToolCallArguments(0)).as("fragment").isEqualTo("{\"city\"");
        decode(d, c, "{\"type\":\"response.function_call_arguments.delta\",\"delta\":\"x\",\"output_index\":3}");
        assertThat(c.keptToolCallIndex(0)).as("matched by output_index to the second call").isEqualTo(1);
        decode(d, c, "{\"type\":\"response.function_call_arguments.delta\",\"delta\":\"y\"}");
        assertThat(c.keptToolCallIndex(0)).as("neither: the last call started").isEqualTo(1);
        decode(d, c, "{\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}");
        assertThat(c.contentText().toString()).as("content text kept for the reply").isEqualTo("Hi");

        decode(d, c, "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_9\",\"usage\":{\"input_tokens\":1,"
                + "\"output_tokens\":2}}}");
        assertThat(d.ended()).as("completed ends").isTrue();
        assertThat(c.finishReason()).as("an answer with function calls").isEqualTo("tool_calls");
        assertThat(c.keptResponseId()).as("response id from response.completed").isEqualTo("resp_9");
    }

    @Test
    void aFunctionCallStreamWithToolsIsOutputAndTheReplyHasTheCallAndTheResponseId() {
        ChunkAccumulator a = new ChunkAccumulator(1_000, ApiEndpoint.RESPONSES, true, true);
        SseLineSplitter s = new SseLineSplitter(a);
        String stream = event("response.created", "\"response\":{\"id\":\"resp_1\"}")
                + event("response.output_item.added", "\"item\":{\"id\":\"fc_1\",\"arguments\":\"\","
                + "\"call_id\":\"call_1\",\"name\":\"get_weather\",\"type\":\"function_call\"}")
                + event("response.function_call_arguments.delta", "\"delta\":\"{\\\"city\\\":\",\"item_id\":\"fc_1\"")
                + event("response.function_call_arguments.delta", "\"delta\":\"\\\"Paris\\\"}\",\"item_id\":\"fc_1\"")
                + completed("{\"input_tokens\":20,\"output_tokens\":9}");
        a.at(1_300);
        byte[] b = stream.getBytes(StandardCharsets.UTF_8);
        assertThat(s.feed(b, 0, b.length)).as("ends at response.completed").isFalse();
        assertThat(a.failure()).as("failure").isNull();
        assertThat(a.visibleContentFailure()).as("a tool-call answer with tools is a success").isNull();
        assertThat(a.toolCallChunks()).as("the item and two argument deltas").isEqualTo(3);
        assertThat(a.ttftNs()).as("with tools the first tool-call delta is the first token").isEqualTo(300);
        assertThat(a.reply()).as("reply").isEqualTo(new Reply("",
                java.util.List.of(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}")), "resp_1"));
        assertThat(a.finishReason()).as("finish").isEqualTo("tool_calls");
    }

    @Test
    void trailingDataAndNonObjectsAreSkipped() {
        ResponsesEventDecoder d = new ResponsesEventDecoder();
        DecodedChunk c = new DecodedChunk();
        assertThat(decode(d, c, "{\"type\":\"response.completed\"} x")).as("trailing data").isEqualTo(Parse.INVALID);
        assertThat(d.ended()).as("a payload that did not parse does not end the stream").isFalse();
        assertThat(decode(d, c, "[1]")).as("an array").isEqualTo(Parse.INVALID);
        assertThat(decode(d, c, "{\"type\":\"response.output_text.delta\",\"delta\":\"ab"))
                .as("a cut payload").isEqualTo(Parse.INCOMPLETE);
    }

    static Parse decode(EventDecoder d, DecodedChunk c, String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return d.decode(b, 0, b.length, c);
    }
}

package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Tool-call deltas and the kept reply on the chat/completions stream (issue 29): how they are decoded, when they
 * are output, what a tool-call-only answer is with and without tools, and llama.cpp's {@code timings.cache_n}.
 */
class ChunkToolCallsTest {
    private static final long T0 = 1_000;

    /** A stream fed to one accumulator, each payload at its own arrival time. */
    private static final class Stream {
        final ChunkAccumulator acc;
        final SseLineSplitter splitter;

        Stream(boolean toolsSent, boolean keepReply) {
            acc = new ChunkAccumulator(T0, io.capstream.loadgen.workload.ApiEndpoint.CHAT, toolsSent, keepReply);
            splitter = new SseLineSplitter(acc);
        }

        Stream at(long now, String payload) {
            acc.at(now);
            byte[] b = ("data: " + payload + "\n\n").getBytes(StandardCharsets.UTF_8);
            splitter.feed(b, 0, b.length);
            return this;
        }
    }

    private static String delta(String deltaJson) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
                + deltaJson + ",\"finish_reason\":null}]}";
    }

    private static final String ROLE = delta("{\"role\":\"assistant\",\"content\":null}");
    private static final String FINISH_TOOL_CALLS =
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}";

    /** OpenAI's shape: index on every delta, id, type and name on the first only, arguments in fragments. */
    private static Stream openAiToolCall(Stream s) {
        return s.at(1_100, ROLE)
                .at(1_300, delta("{\"tool_calls\":[{\"index\":0,\"id\":\"call_abc\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}"))
                .at(1_400, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\"}}]}"))
                .at(1_600, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\":\\\"Oslo\\\"}\"}}]}"))
                .at(1_650, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\"}}]}"))
                .at(1_700, FINISH_TOOL_CALLS)
                .at(1_800, "{\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":12}}")
                .at(1_900, "[DONE]");
    }

    @Test
    void withToolsTheFirstToolCallDeltaIsTheFirstOutputAndTokenAndEachNonEmptyOneAnOutputChunk() {
        Stream s = openAiToolCall(new Stream(true, false));
        assertThat(s.acc.ttfoNs()).as("TTFO: the delta that starts the call, at 1300").isEqualTo(300);
        assertThat(s.acc.ttftNs()).as("TTFT: the answer's first token is the tool call's").isEqualTo(300);
        assertThat(s.acc.toolCallChunks()).as("non-empty tool-call deltas (the empty-arguments one is not)")
                .isEqualTo(3);
        assertThat(s.acc.contentChunks()).as("content deltas").isZero();
        assertThat(s.acc.outputChunkGaps().size()).as("gaps between the three output chunks").isEqualTo(2);
        assertThat(s.acc.visibleContentFailure()).as("a tool-call-only answer succeeds when tools are sent").isNull();
        assertThat(s.acc.reply().kind()).isEqualTo("tool_call");
        assertThat(s.acc.reply().toolCalls()).as("the call, even when the reply text is not kept")
                .containsExactly(new ToolCall("call_abc", "get_weather", "{\"city\":\"Oslo\"}"));
        assertThat(s.acc.completionTokens()).as("the call's tokens come from usage").isEqualTo(12);
    }

    @Test
    void withoutToolsAToolCallOnlyAnswerFailsSayingTheModelAnsweredWithAToolCallAndMeasuresNothing() {
        Stream s = openAiToolCall(new Stream(false, false));
        RequestError e = s.acc.visibleContentFailure();
        assertThat(e).as("failure").isNotNull();
        assertThat(e.type()).isEqualTo(ErrorTypes.VALUE_ERROR);
        assertThat(e.message()).isEqualTo("stream completed without visible content: the model answered with a tool"
                + " call (1 tool call, no text); send --tools to measure tool calls");
        assertThat(s.acc.ttfoNs()).as("tool-call deltas are not output without tools").isEqualTo(-1);
        assertThat(s.acc.ttftNs()).isEqualTo(-1);
        assertThat(s.acc.outputChunkGaps().size()).isZero();
        assertThat(s.acc.toolCallChunks()).as("still counted").isEqualTo(3);
    }

    @Test
    void theDefaultAccumulatorFailsAToolCallOnlyAnswerSayingSo() {
        // the accumulator every existing caller builds (no tools, no reply)
        ChunkAccumulator acc = new ChunkAccumulator(T0);
        SseLineSplitter splitter = new SseLineSplitter(acc);
        byte[] b = ("data: " + delta("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{}\"}},{\"index\":1,\"id\":\"call_2\",\"function\":{\"name\":\"g\",\"arguments\":"
                + "\"{}\"}}]}") + "\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        acc.at(1_200);
        splitter.feed(b, 0, b.length);
        assertThat(acc.visibleContentFailure().message()).as("two calls in one chunk")
                .isEqualTo("stream completed without visible content: the model answered with a tool call"
                        + " (2 tool calls, no text); send --tools to measure tool calls");
    }

    @Test
    void anEmptyAnswerKeepsTheSpecsMessageWithAndWithoutTools() {
        for (boolean tools : new boolean[] {false, true}) {
            Stream s = new Stream(tools, true).at(1_100, ROLE).at(1_200, delta("{\"content\":\"\"}"))
                    .at(1_300, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\"}}]}"))
                    .at(1_400, "[DONE]");
            assertThat(s.acc.visibleContentFailure().message()).as("tools sent: %s", tools)
                    .isEqualTo(ErrorTypes.NO_VISIBLE_CONTENT);
        }
    }

    @Test
    void withoutToolsContentWithToolCallsIsMeasuredOnTheContentOnly() {
        Stream s = new Stream(false, false).at(1_100, ROLE)
                .at(1_200, delta("{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}"))
                .at(1_500, delta("{\"content\":\"ok\"}"))
                .at(1_600, "[DONE]");
        assertThat(s.acc.visibleContentFailure()).isNull();
        assertThat(s.acc.ttfoNs()).as("the reference's TTFO: the content").isEqualTo(500);
        assertThat(s.acc.ttftNs()).isEqualTo(500);
        assertThat(s.acc.outputChunkGaps().size()).as("one output chunk, no gap").isZero();
    }

    @Test
    void withToolsReasoningThenAToolCallSetsTtfoAtTheReasoningAndTtftAtTheCall() {
        Stream s = new Stream(true, false).at(1_100, delta("{\"reasoning_content\":\"hmm\"}"))
                .at(1_250, delta("{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}"))
                .at(1_400, delta("{\"content\":\"and text\"}"));
        assertThat(s.acc.ttfoNs()).isEqualTo(100);
        assertThat(s.acc.ttftNs()).as("the tool call came before the text").isEqualTo(250);
        assertThat(s.acc.contentChunks()).isEqualTo(1);
        assertThat(s.acc.outputChunkGaps().size()).isEqualTo(2);
    }

    @Test
    void indexLessDeltasWithTheIdOnlyOnTheFirstAssembleIntoOneCallPerId() {
        // no index anywhere (seen from real providers): the id starts a call, later deltas go to the last one
        Stream s = new Stream(true, true).at(1_100, ROLE)
                .at(1_200, delta("{\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\"}}]}"))
                .at(1_300, delta("{\"tool_calls\":[{\"function\":{\"arguments\":\"\\\"cats\\\"}\"}}]}"))
                .at(1_400, delta("{\"tool_calls\":[{\"id\":\"call_2\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"fetch\",\"arguments\":\"\"}}]}"))
                .at(1_500, delta("{\"tool_calls\":[{\"index\":null,\"function\":{\"arguments\":\"{}\"}}]}"))
                .at(1_600, FINISH_TOOL_CALLS).at(1_700, "[DONE]");
        assertThat(s.acc.reply().toolCalls()).containsExactly(
                new ToolCall("call_1", "search", "{\"q\":\"cats\"}"),
                new ToolCall("call_2", "fetch", "{}"));
        assertThat(s.acc.toolCallChunks()).isEqualTo(4);
        assertThat(s.acc.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    void severalIndexedCallsWithArgumentsAcrossChunksAndNoIdGetGeneratedIds() {
        Stream s = new Stream(true, true)
                .at(1_100, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"[1,\"}},"
                        + "{\"index\":1,\"function\":{\"name\":\"b\",\"arguments\":\"[\"}}]}"))
                .at(1_200, delta("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"3]\"}}]}"))
                .at(1_300, delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"2]\"}}]}"));
        assertThat(s.acc.reply().toolCalls()).containsExactly(
                new ToolCall("call_0", "a", "[1,2]"), new ToolCall("call_1", "b", "[3]"));
        assertThat(s.acc.toolCallChunks()).as("two deltas in the first chunk count separately").isEqualTo(4);
        assertThat(s.acc.outputChunkGaps().size()).as("three output chunks").isEqualTo(2);
    }

    @Test
    void theKeptReplyHasTheContentTextInOrderAndOnlyWhenKept() {
        Stream kept = new Stream(false, true).at(1_100, ROLE).at(1_200, delta("{\"content\":\"Hel\"}"))
                .at(1_300, delta("{\"reasoning_content\":\"not text\"}"))
                .at(1_400, delta("{\"content\":\"lo \\\"w\\u00f6rld\\\" \\ud83d\\ude00\"}"))
                .at(1_500, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"!\"}}],\"error\":{\"message\":\"x\"}}");
        assertThat(kept.acc.reply().text()).as("content deltas joined, escapes decoded, reasoning left out; the"
                + " failing chunk's delta counted like the reference").isEqualTo("Hello \"wörld\" \uD83D\uDE00!");
        assertThat(kept.acc.reply().kind()).isEqualTo("text");

        Stream notKept = new Stream(false, false).at(1_200, delta("{\"content\":\"Hel\"}"));
        assertThat(notKept.acc.reply()).as("nothing kept for a single-turn run").isSameAs(Reply.NONE);
    }

    @Test
    void anUnparseableOrMalformedChunkAddsNothingToTheReply() {
        Stream s = new Stream(true, true).at(1_100, delta("{\"content\":\"a\"}"))
                .at(1_200, "{\"choices\":[{\"delta\":{\"content\":\"b\"}}]} trailing")
                .at(1_300, delta("{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}")
                        .replace("\"finish_reason\":null}]", "\"finish_reason\":null}, 5]"));
        assertThat(s.acc.reply().text()).isEqualTo("a");
        assertThat(s.acc.reply().toolCalls()).as("the malformed chunk failed the request before its deltas").isEmpty();
    }

    @Test
    void llamaCppTimingsCacheNIsTheCachedTokensOfAKeptReplyWhenUsageHasNone() {
        String llamaFinal = "{\"choices\":[],\"usage\":{\"completion_tokens\":16,\"prompt_tokens\":301,"
                + "\"total_tokens\":317},\"timings\":{\"cache_n\":256,\"prompt_n\":45,\"prompt_ms\":30.1,"
                + "\"predicted_n\":16,\"predicted_ms\":20.5}}";
        Stream conv = new Stream(false, true).at(1_100, delta("{\"content\":\"x\"}")).at(1_200, llamaFinal);
        assertThat(conv.acc.cachedTokens()).as("timings.cache_n without prompt_tokens_details").isEqualTo(256);
        assertThat(conv.acc.promptTokens()).isEqualTo(301);

        Stream single = new Stream(false, false).at(1_100, delta("{\"content\":\"x\"}")).at(1_200, llamaFinal);
        assertThat(single.acc.cachedTokens()).as("a single-turn run reads usage only, like the reference")
                .isEqualTo(-1);

        Stream both = new Stream(false, true).at(1_100, delta("{\"content\":\"x\"}")).at(1_200,
                llamaFinal.replace("\"total_tokens\":317", "\"prompt_tokens_details\":{\"cached_tokens\":300}"));
        assertThat(both.acc.cachedTokens()).as("usage's cached_tokens wins").isEqualTo(300);
    }

    /** The real llama-server's stream without usage: only the finish chunk's timings say what the cache held. */
    @Test
    void aRealLlamaServerStreamWithoutUsageGivesTimingsCacheNToAKeptReplyOnly() throws Exception {
        byte[] body;
        try (java.io.InputStream in = getClass().getResourceAsStream("/client/llama-chat-no-usage-repeat.sse")) {
            body = in.readAllBytes();
        }
        for (boolean keep : new boolean[] {false, true}) {
            ChunkAccumulator acc = new ChunkAccumulator(T0, io.capstream.loadgen.workload.ApiEndpoint.CHAT, false, keep);
            acc.at(2_000);
            new SseLineSplitter(acc).feed(body, 0, body.length);
            assertThat(acc.visibleContentFailure()).isNull();
            assertThat(acc.contentChunks()).isEqualTo(8);
            assertThat(acc.promptTokens()).as("no usage").isEqualTo(-1);
            assertThat(acc.cachedTokens()).as("keepReply %s", keep).isEqualTo(keep ? 47 : -1);
            assertThat(acc.reply().text()).isEqualTo(keep ? "olas".repeat(8) : "");
        }
    }

    /** OpenAI's legacy function calling ({@code functions}, still served by Azure and older gateways). */
    private static Stream legacyFunctionCall(Stream s) {
        return s.at(1_100, ROLE)
                .at(1_300, delta("{\"role\":\"assistant\",\"content\":null,\"function_call\":{\"name\":\"get_weather\","
                        + "\"arguments\":\"\"}}"))
                .at(1_400, delta("{\"function_call\":{\"arguments\":\"{\\\"city\\\":\"}}"))
                .at(1_500, delta("{\"function_call\":{\"arguments\":\"\\\"Oslo\\\"}\"}}"))
                .at(1_700, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"function_call\"}]}")
                .at(1_900, "[DONE]");
    }

    @Test
    void withToolsALegacyFunctionCallOnlyAnswerIsAToolCallNotAnEmptyAnswer() {
        Stream s = legacyFunctionCall(new Stream(true, false));
        assertThat(s.acc.visibleContentFailure()).as("an agent loop's function-call turn succeeds").isNull();
        assertThat(s.acc.ttftNs()).as("TTFT at the first function_call delta").isEqualTo(300);
        assertThat(s.acc.toolCallChunks()).as("non-empty function_call deltas").isEqualTo(3);
        assertThat(s.acc.reply().toolCalls()).as("the call, assembled")
                .containsExactly(new ToolCall("call_0", "get_weather", "{\"city\":\"Oslo\"}"));
        assertThat(s.acc.finishReason()).isEqualTo("function_call");
    }

    @Test
    void withoutToolsALegacyFunctionCallOnlyAnswerFailsSayingSoNotAsAnEmptyAnswer() {
        Stream s = legacyFunctionCall(new Stream(false, false));
        assertThat(s.acc.visibleContentFailure().message()).as("the failure of a function-call-only answer")
                .isEqualTo("stream completed without visible content: the model answered with a tool call"
                        + " (1 tool call, no text); send --tools to measure tool calls");
    }
}

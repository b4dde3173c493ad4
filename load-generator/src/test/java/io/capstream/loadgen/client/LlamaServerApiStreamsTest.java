package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Real llama-server Responses and Messages streams (recorded, see resources/client-apis/README.md) decoded whole. */
class LlamaServerApiStreamsTest {
    private static ChunkAccumulator replay(String resource, ApiEndpoint endpoint) throws IOException {
        byte[] b;
        try (InputStream in = LlamaServerApiStreamsTest.class.getResourceAsStream("/client-apis/" + resource)) {
            assertThat(in).as(resource).isNotNull();
            b = in.readAllBytes();
        }
        ChunkAccumulator acc = new ChunkAccumulator(0, endpoint, false, true);
        SseLineSplitter s = new SseLineSplitter(acc);
        acc.at(1_000);
        boolean more = s.feed(b, 0, b.length);
        assertThat(more).as("%s: the terminal event stops reading", resource).isFalse();
        assertThat(acc.done()).as("%s: done", resource).isTrue();
        assertThat(acc.failure()).as("%s: failure", resource).isNull();
        return acc;
    }

    @Test
    void responsesText() throws IOException {
        ChunkAccumulator acc = replay("llama-resp-text.sse", ApiEndpoint.RESPONSES);
        assertThat(acc.contentChunks()).as("output_text deltas").isEqualTo(8);
        assertThat(acc.reasoningChunks()).as("reasoning").isZero();
        assertThat(acc.promptTokens()).as("input_tokens").isEqualTo(31);
        assertThat(acc.completionTokens()).as("output_tokens").isEqualTo(8);
        assertThat(acc.cachedTokens()).as("cached_tokens").isZero();
        assertThat(acc.dataLines()).as("every data line up to response.completed").isEqualTo(16);
        assertThat(acc.reply().text()).as("reply text").isEqualTo("olas".repeat(8));
        assertThat(acc.reply().responseId()).as("response id").isEqualTo("resp_xFAaQVuHl5vTbNIYLo5gn8fvJH2Jirai");
        assertThat(acc.visibleContentFailure()).as("content arrived").isNull();
    }

    @Test
    void responsesReasoningOnly() throws IOException {
        ChunkAccumulator acc = replay("llama-resp-think.sse", ApiEndpoint.RESPONSES);
        assertThat(acc.reasoningChunks()).as("reasoning_text deltas").isEqualTo(12);
        assertThat(acc.contentChunks()).as("content").isZero();
        assertThat(acc.cachedTokens()).as("cached_tokens (the prompt was sent before)").isEqualTo(29);
        assertThat(acc.completionTokens()).as("output_tokens").isEqualTo(12);
        assertThat(acc.visibleContentFailure()).as("reasoning only: no visible content")
                .isEqualTo(ChunkErrors.noVisibleContent());
    }

    @Test
    void messagesText() throws IOException {
        ChunkAccumulator acc = replay("llama-msg-text.sse", ApiEndpoint.MESSAGES);
        assertThat(acc.contentChunks()).as("text deltas").isEqualTo(8);
        assertThat(acc.promptTokens()).as("input_tokens 1 + cache_read_input_tokens 30").isEqualTo(31);
        assertThat(acc.cachedTokens()).as("cache_read_input_tokens").isEqualTo(30);
        assertThat(acc.completionTokens()).as("message_delta's output_tokens").isEqualTo(8);
        assertThat(acc.finishReason()).as("max_tokens").isEqualTo("length");
        assertThat(acc.reply().text()).as("reply text").isEqualTo("olas".repeat(8));
    }

    @Test
    void messagesThinkingOnly() throws IOException {
        ChunkAccumulator acc = replay("llama-msg-think.sse", ApiEndpoint.MESSAGES);
        assertThat(acc.reasoningChunks()).as("thinking deltas (the signature delta is none)").isEqualTo(12);
        assertThat(acc.contentChunks()).as("content").isZero();
        assertThat(acc.completionTokens()).as("output tokens").isEqualTo(12);
    }
}

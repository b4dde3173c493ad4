package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A real chunk sent as one SSE event whose {@code data:} field spans several lines, split at every byte offset
 * (and, for a short chunk, at every pair of offsets): the event decodes exactly as the one-line chunk does, wherever
 * the first line ends inside the JSON (inside a string, an escape, a number, a literal, a multi-byte character).
 */
class SseEventSplitTest {
    /** llama.cpp's reasoning chunk (streams/llama/chat-thinking.sse), with non-ASCII text and escapes put in. */
    private static final String REASONING = "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":"
            + "{\"reasoning_content\":\"\\nolas caf\u00e9 \u2713 \\\"q\\\" \\u00e9\"}}],\"created\":1796451012,"
            + "\"id\":\"chatcmpl-n00UPLFWmymQLPMo8u3d7OL4wgzwiXo2\",\"model\":\"random-llama-20m\","
            + "\"system_fingerprint\":\"b1-80fb11a\",\"object\":\"chat.completion.chunk\"}";
    /** A tool-call chunk in llama.cpp's shape (arguments are escaped JSON text). */
    private static final String TOOL_CALL = "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":"
            + "{\"tool_calls\":[{\"index\":0,\"id\":\"call_ab12\",\"type\":\"function\",\"function\":"
            + "{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Troms\u00f8\\\",\\\"days\\\":-2.5e1}\"}}]}}],"
            + "\"created\":1796451010,\"object\":\"chat.completion.chunk\"}";
    /** A content chunk with a finish reason, booleans, null, NaN and numbers of every form. */
    private static final String CONTENT = "{\"choices\":[{\"delta\":{\"content\":\" a \"},\"finish_reason\":\"stop\","
            + "\"logprobs\":null}],\"x\":[true,false,-0.5E+3,12,NaN,-Infinity],\"object\":\"chat.completion.chunk\"}";

    @Test
    void everySplitOfARealChunkIntoTwoDataLinesDecodesAsTheWholeChunk() throws IOException {
        List<String> chunks = new ArrayList<>(List.of(REASONING, TOOL_CALL, CONTENT, usageChunk()));
        for (String chunk : chunks) {
            byte[] json = chunk.getBytes(StandardCharsets.UTF_8);
            String whole = decoded(json);
            assertThat(whole).as("the whole chunk decodes to something").doesNotContain("contentChunks=0, "
                    + "reasoningChunks=0, toolCallChunks=0, usage=-1/-1/-1");
            List<String> wrong = new ArrayList<>();
            for (int k = 1; k < json.length; k++) {
                String split = decoded(json, k);
                if (!split.equals(whole)) {
                    wrong.add(k + " (" + show(json, k) + "): " + split);
                }
            }
            assertThat(wrong).as("offsets where the two-line event decoded differently from %s", whole).isEmpty();
        }
    }

    @Test
    void everyPairOfSplitsOfAShortChunkIntoThreeDataLinesDecodesAsTheWholeChunk() {
        byte[] json = CONTENT.getBytes(StandardCharsets.UTF_8);
        String whole = decoded(json);
        List<String> wrong = new ArrayList<>();
        for (int i = 1; i < json.length; i++) {
            for (int j = i + 1; j < json.length; j++) {
                String split = decoded(json, i, j);
                if (!split.equals(whole) && wrong.size() < 20) {
                    wrong.add(i + "," + j + ": " + split);
                }
            }
        }
        assertThat(wrong).as("offset pairs where the three-line event decoded differently from %s", whole).isEmpty();
    }

    @Test
    void aSplitEventWithCarriageReturnsAndBlankLinesBetweenEventsStillDecodes() {
        byte[] json = TOOL_CALL.getBytes(StandardCharsets.UTF_8);
        String whole = decoded(json);
        for (int k = 1; k < json.length; k++) {
            String head = new String(Arrays.copyOfRange(json, 0, k), StandardCharsets.UTF_8);
            String tail = new String(Arrays.copyOfRange(json, k, json.length), StandardCharsets.UTF_8);
            if (!Arrays.equals((head + tail).getBytes(StandardCharsets.UTF_8), json)) {
                continue; // a cut inside a character: covered byte-wise above
            }
            String stream = ": ping\r\n\r\ndata: " + head + "\r\ndata: " + tail + "\r\n\r\ndata: [DONE]\r\n\r\n";
            assertThat(summary(stream.getBytes(StandardCharsets.UTF_8))).as("CRLF split at %d", k).isEqualTo(whole);
        }
    }

    private static String usageChunk() throws IOException {
        try (InputStream in = SseEventSplitTest.class.getResourceAsStream("/streams/llama/chat-text.sse")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String last = null;
            for (String line : text.split("\n")) {
                if (line.startsWith("data: {") && line.contains("\"timings\"")) {
                    last = line.substring("data: ".length()).strip();
                }
            }
            assertThat(last).as("a usage chunk with timings in chat-text.sse").isNotNull();
            return last;
        }
    }

    /** The chunk as one event of data lines cut at the offsets. */
    private static String decoded(byte[] json, int... cuts) {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        int from = 0;
        int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
        ends[cuts.length] = json.length;
        for (int end : ends) {
            s.writeBytes("data: ".getBytes(StandardCharsets.US_ASCII));
            s.write(json, from, end - from);
            s.write('\n');
            from = end;
        }
        s.writeBytes("\ndata: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
        return summary(s.toByteArray());
    }

    private static String summary(byte[] stream) {
        ChunkAccumulator acc = new ChunkAccumulator(0, ApiEndpoint.CHAT, true, true);
        SseLineSplitter lines = new SseLineSplitter(acc);
        acc.at(100);
        lines.feed(stream, 0, stream.length);
        lines.finish();
        return "contentChunks=" + acc.contentChunks() + ", reasoningChunks=" + acc.reasoningChunks()
                + ", toolCallChunks=" + acc.toolCallChunks() + ", usage=" + acc.promptTokens() + "/"
                + acc.completionTokens() + "/" + acc.cachedTokens() + ", finish=" + acc.finishReason() + ", failure="
                + acc.failure() + ", done=" + acc.done() + ", ttft=" + acc.ttftNs() + ", reply=" + acc.reply();
    }

    private static String show(byte[] json, int k) {
        String head = new String(json, Math.max(0, k - 12), k - Math.max(0, k - 12), StandardCharsets.UTF_8);
        String tail = new String(json, k, Math.min(12, json.length - k), StandardCharsets.UTF_8);
        return head + "|" + tail;
    }
}

package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkAccumulatorTest {
    private final ChunkAccumulator acc = new ChunkAccumulator(1_000);
    private final SseLineSplitter splitter = new SseLineSplitter(acc);

    /** Feeds text arriving at absolute time {@code now}. */
    private boolean at(long now, String text) {
        acc.at(now);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return splitter.feed(b, 0, b.length);
    }

    private static String content(String c) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":" + c + "}}]}\n\n";
    }

    @Test
    void typicalStreamWithUsageAndDone() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n");
        at(1_500, content("\"Hel\""));
        at(1_700, content("\"lo\""));
        at(1_800, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n");
        at(1_900, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":2,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":8}}}\n\n");
        assertFalse(at(2_000, "data: [DONE]\n\n"));
        assertTrue(acc.done());
        assertEquals(500, acc.ttfoNs());
        assertEquals(500, acc.ttftNs());
        assertEquals(2, acc.contentChunks());
        assertEquals(0, acc.reasoningChunks());
        assertEquals(12, acc.promptTokens());
        assertEquals(2, acc.completionTokens());
        assertEquals(8, acc.cachedTokens());
        assertEquals("length", acc.finishReason());
        assertEquals(400, acc.maxGapNs()); // 1100 -> 1500
        assertNull(acc.failure());
    }

    @Test
    void crlfCommentsEventLinesAndDataWithoutSpace() {
        at(1_010, ": keep-alive\r\n\r\nevent: message\r\ndata:{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\n\r\n");
        at(1_020, "   data:   {\"choices\":[{\"delta\":{\"content\":\" \"}}]}   \r\n");
        assertEquals(2, acc.contentChunks(), "whitespace-only content counts");
        assertEquals(10, acc.ttftNs());
    }

    @Test
    void contentNullAndEmptyDoNotCount() {
        at(1_010, content("null"));
        at(1_020, content("\"\""));
        at(1_030, content("5"));
        assertEquals(0, acc.contentChunks());
        assertEquals(-1, acc.ttftNs());
        assertEquals(-1, acc.ttfoNs());
    }

    @Test
    void reasoningContentThenContent() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}\n");
        at(1_200, "data: {\"choices\":[{\"delta\":{\"reasoning\":\"more\"}}]}\n");
        at(1_300, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"\",\"reasoning\":\"alt\"}}]}\n");
        at(1_400, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"both\",\"content\":\"x\"}}]}\n");
        assertEquals(100, acc.ttfoNs());
        assertEquals(400, acc.ttftNs());
        assertEquals(4, acc.reasoningChunks());
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void truthyNonStringReasoningContentHidesReasoning() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":{\"a\":1},\"reasoning\":\"r\"}}]}\n");
        at(1_200, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":[],\"reasoning\":\"r\"}}]}\n");
        assertEquals(1, acc.reasoningChunks());
        assertEquals(200, acc.ttfoNs());
    }

    @Test
    void multipleChoicesCountPerChoiceDelta() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"b\"}},{\"delta\":null}]}\n");
        assertEquals(2, acc.contentChunks());
    }

    @Test
    void malformedJsonIsSkipped() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}\n");
        at(1_200, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]} trailing\n");
        at(1_300, "data: not json\n");
        at(1_400, "data: \n");
        assertEquals(0, acc.contentChunks());
        assertNull(acc.failure());
        at(1_500, content("\"ok\""));
        assertEquals(1, acc.contentChunks());
        assertEquals(500, acc.ttftNs());
    }

    @Test
    void usageLastTruthyWinsAndEmptyUsageIsIgnored() {
        at(1_100, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n");
        at(1_200, "data: {\"choices\":[],\"usage\":{}}\n");
        assertEquals(1, acc.completionTokens());
        at(1_300, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":true}}\n");
        assertEquals(7, acc.promptTokens());
        assertEquals(-1, acc.completionTokens(), "booleans are not integers");
        at(1_400, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":-3,\"completion_tokens\":4.0}}\n");
        assertEquals(-1, acc.promptTokens());
        assertEquals(-1, acc.completionTokens(), "floats are not integers");
        assertEquals(-1, acc.cachedTokens());
    }

    @Test
    void choicesNullIsTypeError() {
        assertFalse(at(1_100, "data: {\"choices\":null}\n"));
        assertEquals(ErrorTypes.TYPE_ERROR, acc.failure().type());
        assertThat(acc.failure().message()).contains("'NoneType' object is not iterable");
    }

    @Test
    void nonObjectChunkIsTypeError() {
        assertFalse(at(1_100, "data: [1,2]\n"));
        assertEquals(ErrorTypes.TYPE_ERROR, acc.failure().type());
        assertThat(acc.failure().message()).contains("array");
    }

    @Test
    void choicesEmptyStringIsFineButNonEmptyStringIsTypeError() {
        assertTrue(at(1_100, "data: {\"choices\":\"\"}\n"));
        assertNull(acc.failure());
        assertFalse(at(1_200, "data: {\"choices\":\"ab\"}\n"));
        assertEquals(ErrorTypes.TYPE_ERROR, acc.failure().type());
    }

    @Test
    void errorObjectInsideStreamFails() {
        at(1_100, content("\"a\""));
        assertFalse(at(1_200, "data: {\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\",\"code\":500}}\n"));
        assertEquals(ErrorTypes.VALUE_ERROR, acc.failure().type());
        assertEquals("server sent an error object inside the HTTP 200 stream: out of memory (type=server_error, code=500)",
                acc.failure().message());
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void nullErrorIsIgnored() {
        assertTrue(at(1_100, "data: {\"error\":null,\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n"));
        assertNull(acc.failure());
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void invalidUtf8IsReplacedNotSkipped() {
        acc.at(1_100);
        byte[] pre = "data: {\"choices\":[{\"delta\":{\"content\":\"".getBytes(StandardCharsets.US_ASCII);
        byte[] post = "\"}}]}\n".getBytes(StandardCharsets.US_ASCII);
        byte[] b = new byte[pre.length + 2 + post.length];
        System.arraycopy(pre, 0, b, 0, pre.length);
        b[pre.length] = (byte) 0xff;
        b[pre.length + 1] = (byte) 0xfe;
        System.arraycopy(post, 0, b, pre.length + 2, post.length);
        splitter.feed(b, 0, b.length);
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void nanAndInfinityAreAcceptedLikePythonJson() {
        at(1_100, "data: {\"x\":NaN,\"y\":-Infinity,\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n");
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void doneWithSurroundingWhitespaceStops() {
        assertFalse(at(1_100, "data:   [DONE]  \r\n" + content("\"late\"")));
        assertTrue(acc.done());
        assertEquals(0, acc.contentChunks());
    }

    @Test
    void gapIsBetweenDataLinesOnly() {
        at(1_100, content("\"a\""));
        at(5_000, ": ping\n");
        at(6_100, content("\"b\""));
        at(6_200, content("\"c\""));
        assertEquals(5_000, acc.maxGapNs());
        assertEquals(3, acc.dataLines());
    }

    @Test
    void dataSpanningSeveralLinesIsOneEvent() {
        assertTrue(at(1_100, "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"hi\"}}]}\n\n"));
        assertEquals(1, acc.contentChunks());
        assertEquals(100, acc.ttftNs());
        assertEquals(2, acc.dataLines());
        assertNull(acc.failure());
    }

    @Test
    void multiLineEventIsDispatchedAtItsBlankLineAndStampedThen() {
        at(1_100, "data: {\"choices\":[{\"delta\":\n");
        at(1_200, "data: {\"content\":\"hi\"}}]}\n");
        assertEquals(0, acc.contentChunks(), "the event is not over before its blank line");
        at(1_300, "\n");
        assertEquals(1, acc.contentChunks());
        assertEquals(300, acc.ttftNs(), "stamped with the arrival of the blank line that completed the event");
        assertEquals(100, acc.maxGapNs(), "gaps are between data lines as they arrive");
    }

    @Test
    void continuationLineThatParsesAloneIsStillJoined() {
        at(1_100, "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"hi\"}\ndata: }]}\n\n");
        assertEquals(1, acc.contentChunks());
        assertEquals(100, acc.ttftNs());
    }

    @Test
    void multiLineEventEndedByTheEndOfTheStream() {
        at(1_100, "data: {\"choices\":[{\"delta\":\n");
        at(1_200, "data: {\"content\":\"hi\"}}]}"); // no newline, no blank line
        acc.at(1_400);
        assertTrue(splitter.finish());
        assertEquals(1, acc.contentChunks());
        assertEquals(400, acc.ttftNs());
    }

    @Test
    void multiLineEventBeforeDoneWithoutBlankLineIsDispatchedThenDoneStops() {
        assertFalse(at(1_100, "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"hi\"}}]}\ndata: [DONE]\n" + content("\"late\"")));
        assertTrue(acc.done());
        assertEquals(1, acc.contentChunks());
    }

    @Test
    void multiLineErrorObjectFailsLikeAOneLineOne() {
        at(1_100, content("\"a\""));
        assertFalse(at(1_200, "data: {\"error\":\ndata:  {\"message\":\"out of memory\"}}\n\n"));
        assertEquals(ErrorTypes.VALUE_ERROR, acc.failure().type());
        assertEquals("server sent an error object inside the HTTP 200 stream: out of memory", acc.failure().message());
    }

    @Test
    void truncatedLineInAStreamWithoutBlankLinesDoesNotSwallowTheNextLines() {
        // one JSON chunk per line and no blank lines; one line is cut short (a valid JSON prefix)
        at(1_100, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}\n");
        at(1_200, "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n");
        at(1_300, ": ping\n");
        at(1_400, "data: {\"choices\":[{\"delta\":{\"content\":\"c\"}}]}\n");
        assertFalse(at(1_900, "data: [DONE]\n"));
        assertEquals(2, acc.contentChunks(), "the cut line is skipped, the others count, as line by line");
        assertEquals(200, acc.ttftNs(), "each line keeps its own arrival time");
        assertEquals(4, acc.dataLines());
        assertEquals(500, acc.maxGapNs());
    }

    @Test
    void usageOfAMalformedChunkIsKeptAndItsCountsAreNot() {
        assertFalse(at(1_100, "data: {\"usage\":{\"completion_tokens\":3},\"choices\":[{\"delta\":{\"content\":\"a\"}},null]}\n"));
        assertEquals(3, acc.completionTokens());
        assertEquals(0, acc.contentChunks());
        assertEquals("a \"choices\" element is a JSON null ('NoneType' object has no attribute 'get')", acc.failure().message());
    }

    @Test
    void visibleContentFailureOnlyWithoutContent() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}\n");
        assertEquals(new RequestError(ErrorTypes.VALUE_ERROR, ErrorTypes.NO_VISIBLE_CONTENT, false), acc.visibleContentFailure());
        at(1_200, content("\"a\""));
        assertNull(acc.visibleContentFailure());
    }

    @Test
    void oneJsonPerLineWithoutBlankLinesIsHandledLineByLine() {
        at(1_100, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n");
        assertEquals(1, acc.contentChunks(), "handled when its line arrives, not at a blank line");
        assertEquals(100, acc.ttftNs());
        at(1_200, "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n");
        assertEquals(2, acc.contentChunks());
    }
}

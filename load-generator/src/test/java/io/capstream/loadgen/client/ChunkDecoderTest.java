package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.client.DecodedChunk.Malformed;
import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The chunk decoding on its own: payload bytes in, {@link DecodedChunk} values out. */
class ChunkDecoderTest {
    private final DecodedChunk chunk = new DecodedChunk();

    private Parse decode(String json) {
        byte[] b = ("xx" + json + "yy").getBytes(StandardCharsets.UTF_8);
        return ChunkDecoder.decode(b, 2, b.length - 4, chunk); // an offset into a larger array, like a line
    }

    @Test
    void contentAndReasoningDeltasAreCountedPerChoice() {
        assertEquals(Parse.PARSED, decode("{\"choices\":[{\"delta\":{\"content\":\"a\"}},"
                + "{\"delta\":{\"reasoning_content\":\"r\",\"content\":\" \"}},{\"delta\":{\"content\":\"\"}},"
                + "{\"delta\":{\"reasoning\":\"x\"}},{\"delta\":null}]}"));
        assertEquals(2, chunk.contentDeltas());
        assertEquals(2, chunk.reasoningDeltas());
        assertNull(chunk.malformed());
        assertNull(chunk.errorToken());
        assertEquals(false, chunk.usage());
    }

    @Test
    void reasoningContentWinsOverReasoningUnlessFalsy() {
        decode("{\"choices\":[{\"delta\":{\"reasoning_content\":\"\",\"reasoning\":\"alt\"}},"
                + "{\"delta\":{\"reasoning_content\":{\"a\":1},\"reasoning\":\"r\"}},"
                + "{\"delta\":{\"reasoning_content\":[],\"reasoning\":\"r\"}},"
                + "{\"delta\":{\"reasoning_content\":7,\"reasoning\":\"r\"}}]}");
        assertEquals(2, chunk.reasoningDeltas(), "\"\" and [] are falsy, {\"a\":1} and 7 hide reasoning");
        assertEquals(0, chunk.contentDeltas());
    }

    @Test
    void usageTruthyLastWinsAndOnlyNonNegativeIntegersCount() {
        decode("{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":8}}}");
        assertEquals(true, chunk.usage());
        assertEquals(12, chunk.promptTokens());
        assertEquals(2, chunk.completionTokens());
        assertEquals(8, chunk.cachedTokens());
        decode("{\"usage\":{\"prompt_tokens\":-1,\"completion_tokens\":true,\"x\":1,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":1.0}},\"usage\":{}}");
        assertEquals(true, chunk.usage(), "the empty second usage does not replace the first");
        assertEquals(-1, chunk.promptTokens());
        assertEquals(-1, chunk.completionTokens());
        assertEquals(-1, chunk.cachedTokens());
        decode("{\"usage\":{\"completion_tokens\":99999999999999999999999}}");
        assertEquals(-1, chunk.completionTokens(), "beyond a long");
        decode("{\"usage\":{}}");
        assertEquals(false, chunk.usage());
    }

    @Test
    void lastStringFinishReasonWinsAndCommonOnesAreShared() {
        decode("{\"choices\":[{\"finish_reason\":\"length\"},{\"finish_reason\":null},{\"finish_reason\":\"stop\"}]}");
        assertSame("stop", chunk.finishReason());
        decode("{\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}");
        assertSame("length", chunk.finishReason());
        decode("{\"choices\":[{\"finish_reason\":\"tool_calls\"}]}");
        assertEquals("tool_calls", chunk.finishReason());
    }

    @Test
    void valuesOfThePreviousPayloadAreCleared() {
        decode("{\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1},"
                + "\"error\":\"e\"}");
        assertEquals(Parse.PARSED, decode("{}"));
        assertEquals(0, chunk.contentDeltas());
        assertNull(chunk.finishReason());
        assertEquals(false, chunk.usage());
        assertEquals(-1, chunk.promptTokens());
        assertNull(chunk.errorToken());
    }

    @Test
    void incompleteInvalidAndTrailingData() {
        assertEquals(Parse.INCOMPLETE, decode("{\"choices\":[{\"delta\":"));
        assertEquals(Parse.INVALID, decode("{\"choices\":[]} trailing"));
        assertEquals(Parse.INVALID, decode("{\"a\":1} \"ab"), "a cut token after a whole value is trailing data");
        assertEquals(Parse.INVALID, decode("not json"));
        assertEquals(Parse.INVALID, decode(""));
        assertEquals(Parse.PARSED, decode("{\"x\":NaN,\"y\":-Infinity,\"choices\":[{\"delta\":{\"content\":\"a\"}}]}"));
        assertEquals(1, chunk.contentDeltas());
    }

    @Test
    void aPayloadEndingInsideAnyTokenIsIncompleteWhateverTheParserThrows() {
        for (String prefix : new String[] {"{\"a\":tru", "{\"a\":nul", "{\"a\":Na", "{\"a\":-Infin", "{\"a\":-",
                "{\"a\":1.", "{\"a\":1e", "{\"a\":1e+", "{\"a\":\"x\\u00", "{\"a\":\"x\\", "{\"a\":null,",
                "{\"a\":[1,", "{\"ch", "  {", "[\"caf\u00e9"}) {
            assertThat(decode(prefix)).as("payload %s", prefix).isEqualTo(Parse.INCOMPLETE);
        }
        for (String invalid : new String[] {"{\"a\":1.x", "{\"a\":1}}", "{\"a\":1} {", "}", "   ",
                "{\"a\" 1"}) {
            assertThat(decode(invalid)).as("payload %s", invalid).isEqualTo(Parse.INVALID);
        }
    }

    @Test
    void invalidUtf8IsDecodedWithReplacementCharacters() {
        byte[] pre = "{\"choices\":[{\"delta\":{\"content\":\"".getBytes(StandardCharsets.US_ASCII);
        byte[] post = "\"}}]}".getBytes(StandardCharsets.US_ASCII);
        byte[] b = new byte[pre.length + 2 + post.length];
        System.arraycopy(pre, 0, b, 0, pre.length);
        b[pre.length] = (byte) 0xff;
        b[pre.length + 1] = (byte) 0xfe;
        System.arraycopy(post, 0, b, pre.length + 2, post.length);
        assertEquals(Parse.PARSED, ChunkDecoder.decode(b, 0, b.length, chunk));
        assertEquals(1, chunk.contentDeltas());
    }

    @Test
    void malformedStructuresAreRecordedFirstOneWins() {
        assertEquals(Parse.PARSED, decode("[1,2]"));
        assertEquals(Malformed.CHUNK_NOT_OBJECT, chunk.malformed());
        assertEquals(JsonToken.START_ARRAY, chunk.malformedToken());
        assertEquals(Parse.INVALID, decode("[1,2] x"), "trailing data is unparseable, not malformed");
        decode("{\"choices\":null}");
        assertEquals(Malformed.CHOICES_NOT_ITERABLE, chunk.malformed());
        assertEquals(JsonToken.VALUE_NULL, chunk.malformedToken());
        decode("{\"choices\":\"ab\"}");
        assertEquals(Malformed.CHOICES_STRING, chunk.malformed());
        decode("{\"choices\":\"\"}");
        assertNull(chunk.malformed(), "an empty string iterates as nothing");
        decode("{\"choices\":{\"a\":[1]}}");
        assertEquals(Malformed.CHOICES_OBJECT, chunk.malformed());
        decode("{\"choices\":{}}");
        assertNull(chunk.malformed());
        decode("{\"choices\":[{\"delta\":{\"content\":\"a\"}},3,\"s\"],\"choices\":true}");
        assertEquals(Malformed.CHOICE_NOT_OBJECT, chunk.malformed());
        assertEquals(JsonToken.VALUE_NUMBER_INT, chunk.malformedToken(), "the first one is kept");
        assertEquals(1, chunk.contentDeltas());
    }

    @Test
    void errorMembers() {
        decode("{\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\",\"code\":500,\"param\":null}}");
        assertEquals(JsonToken.START_OBJECT, chunk.errorToken());
        assertEquals("out of memory", chunk.errorMessage());
        assertEquals("server_error", chunk.errorType());
        assertEquals("500", chunk.errorCode());
        decode("{\"error\":{\"message\":null,\"type\":{\"x\":1}}}");
        assertEquals(JsonToken.START_OBJECT, chunk.errorToken());
        assertNull(chunk.errorMessage());
        assertNull(chunk.errorType());
        decode("{\"error\":\"boom\"}");
        assertEquals(JsonToken.VALUE_STRING, chunk.errorToken());
        assertEquals("boom", chunk.errorMessage());
        decode("{\"error\":[0]}");
        assertEquals(JsonToken.START_ARRAY, chunk.errorToken());
        decode("{\"error\":\"boom\",\"error\":null,\"choices\":[]}");
        assertEquals("boom", chunk.errorMessage(), "a later falsy error does not clear an earlier one");
        for (String falsy : new String[] {"null", "false", "0", "\"\"", "[]", "{}"}) {
            assertEquals(Parse.PARSED, decode("{\"error\":" + falsy + ",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}"));
            assertNull(chunk.errorToken(), falsy);
            assertEquals(1, chunk.contentDeltas(), falsy);
        }
    }

    /** Issue 29: each {@code delta.tool_calls[]} object is one tool-call delta; odd members are read as absent. */
    @Test
    void toolCallDeltasAreReadWithAbsentOrOddMembersAsAbsent() {
        assertEquals(Parse.PARSED, decode("{\"choices\":[{\"delta\":{\"content\":null,\"tool_calls\":["
                + "{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}},"
                + "{\"index\":\"1\",\"function\":{\"arguments\":{\"a\":1}}},"
                + "7,"
                + "{\"index\":-2,\"id\":null,\"function\":\"g\"},"
                + "{\"index\":99999999999,\"function\":{\"name\":\"h\",\"extra\":[1,{}],\"arguments\":\"{}\"}}]}}],"
                + "\"usage\":{\"prompt_tokens\":3}}"));
        assertThat(chunk.keptToolCallDeltas()).as("object elements only").isEqualTo(4);
        assertThat(chunk.toolCallDeltas()).as("non-empty ones: call_1/f and h/{}").isEqualTo(2);
        assertThat(new Object[] {chunk.keptToolCallIndex(0), chunk.keptToolCallId(0), chunk.keptToolCallName(0),
                chunk.keptToolCallArguments(0)}).containsExactly(0, "call_1", "f", "");
        assertThat(new Object[] {chunk.keptToolCallIndex(1), chunk.keptToolCallArguments(1)})
                .as("a string index and object arguments are absent").containsExactly(-1, null);
        assertThat(new Object[] {chunk.keptToolCallIndex(2), chunk.keptToolCallId(2), chunk.keptToolCallName(2)})
                .containsExactly(-1, null, null);
        assertThat(new Object[] {chunk.keptToolCallIndex(3), chunk.keptToolCallName(3), chunk.keptToolCallArguments(3)})
                .as("an index beyond int is absent").containsExactly(-1, "h", "{}");
        assertEquals(3, chunk.promptTokens(), "members after tool_calls are still read");
        assertEquals(0, chunk.contentDeltas());
        assertEquals(Parse.PARSED, decode("{\"choices\":[{\"delta\":{\"content\":\"x\"}}]}"));
        assertThat(chunk.keptToolCallDeltas()).as("cleared for the next payload").isZero();
        assertThat(chunk.contentText().toString()).as("no text kept by a chunk that does not keep the reply").isEmpty();
    }

    @Test
    void llamaCppTimingsCacheNIsRead() {
        assertEquals(Parse.PARSED, decode("{\"choices\":[],\"timings\":{\"prompt_n\":5,\"cache_n\":12,\"prompt_ms\":1.5}}"));
        assertEquals(12, chunk.timings().cacheN());
        assertEquals(false, chunk.usage(), "timings are not usage");
        assertEquals(Parse.PARSED, decode("{\"timings\":{\"cache_n\":-1},\"choices\":[]}"));
        assertEquals(-1, chunk.timings().cacheN());
    }

    /** Issue 33: llama.cpp's timings and the response id are read for the server's view; the id only until it is known. */
    @Test
    void llamaCppTimingsAndTheResponseIdAreReadForTheServersView() {
        assertThat(decode("{\"id\":\"chatcmpl-1\",\"choices\":[],\"timings\":{\"cache_n\":3,\"prompt_n\":25,"
                + "\"prompt_ms\":29.411,\"prompt_per_token_ms\":1.17,\"predicted_n\":5,\"predicted_ms\":9.069}}"))
                .as("parse").isEqualTo(Parse.PARSED);
        assertThat(chunk.serverId()).as("id").isEqualTo("chatcmpl-1");
        assertThat(chunk.timings().promptN()).as("prompt_n").isEqualTo(25);
        assertThat(chunk.timings().promptMs()).as("prompt_ms").isEqualTo(29.411);
        assertThat(chunk.timings().predictedN()).as("predicted_n").isEqualTo(5);
        assertThat(chunk.timings().predictedMs()).as("predicted_ms").isEqualTo(9.069);
        assertThat(chunk.timings().cacheN()).as("cache_n").isEqualTo(3);
        assertThat(decode("{\"id\":\"chatcmpl-1\",\"choices\":[]}")).as("parse").isEqualTo(Parse.PARSED);
        assertThat(chunk.timings().promptMs()).as("prompt_ms of a chunk without timings").isEqualTo(-1.0);
        chunk.wantServerId(false);
        assertThat(decode("{\"id\":\"chatcmpl-2\",\"choices\":[]}")).as("parse").isEqualTo(Parse.PARSED);
        assertThat(chunk.serverId()).as("id once the request has one: not read").isNull();
        assertThat(decode("{\"timings\":{\"prompt_ms\":\"x\",\"predicted_ms\":-2},\"choices\":[]}"))
                .as("parse").isEqualTo(Parse.PARSED);
        assertThat(chunk.timings().promptMs()).as("a non-number prompt_ms").isEqualTo(-1.0);
        assertThat(chunk.timings().predictedMs()).as("a negative predicted_ms").isEqualTo(-1.0);
    }
}

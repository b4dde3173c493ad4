package io.capstream.loadgen.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.client.DecodedChunk.Malformed;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The failure wording on its own: exact types and messages. */
class ChunkErrorsTest {
    private static DecodedChunk error(JsonToken token, String message, String type, String code) {
        DecodedChunk c = new DecodedChunk();
        c.error(token, message, type, code);
        return c;
    }

    @Test
    void typeErrorsInPythonTerms() {
        assertEquals(new RequestError(ErrorTypes.TYPE_ERROR,
                        "stream chunk is a JSON array, not an object ('list' object has no attribute 'get')", false),
                ChunkErrors.typeError(Malformed.CHUNK_NOT_OBJECT, JsonToken.START_ARRAY));
        assertEquals("stream chunk is a JSON number, not an object ('float' object has no attribute 'get')",
                ChunkErrors.typeErrorMessage(Malformed.CHUNK_NOT_OBJECT, JsonToken.VALUE_NUMBER_FLOAT));
        assertEquals("'NoneType' object is not iterable (\"choices\" is null)",
                ChunkErrors.typeErrorMessage(Malformed.CHOICES_NOT_ITERABLE, JsonToken.VALUE_NULL));
        assertEquals("'int' object is not iterable (\"choices\" is number)",
                ChunkErrors.typeErrorMessage(Malformed.CHOICES_NOT_ITERABLE, JsonToken.VALUE_NUMBER_INT));
        assertEquals("'bool' object is not iterable (\"choices\" is boolean)",
                ChunkErrors.typeErrorMessage(Malformed.CHOICES_NOT_ITERABLE, JsonToken.VALUE_FALSE));
        assertEquals("'str' object has no attribute 'get' (\"choices\" is a string)",
                ChunkErrors.typeErrorMessage(Malformed.CHOICES_STRING, JsonToken.VALUE_STRING));
        assertEquals("'str' object has no attribute 'get' (\"choices\" is an object)",
                ChunkErrors.typeErrorMessage(Malformed.CHOICES_OBJECT, JsonToken.START_OBJECT));
        assertEquals("a \"choices\" element is a JSON string ('str' object has no attribute 'get')",
                ChunkErrors.typeErrorMessage(Malformed.CHOICE_NOT_OBJECT, JsonToken.VALUE_STRING));
    }

    @Test
    void inStreamErrorObjectNamesMessageTypeAndCode() {
        assertEquals(new RequestError(ErrorTypes.VALUE_ERROR,
                        "server sent an error object inside the HTTP 200 stream: out of memory (type=server_error, code=500)", false),
                ChunkErrors.inStreamError(error(JsonToken.START_OBJECT, "out of memory", "server_error", "500")));
        assertEquals("out of memory", ChunkErrors.serverError(error(JsonToken.START_OBJECT, "out of memory", null, null)));
        assertEquals("(no message) (code=429)", ChunkErrors.serverError(error(JsonToken.START_OBJECT, null, null, "429")));
        assertEquals("m (type=t)", ChunkErrors.serverError(error(JsonToken.START_OBJECT, "m", "t", null)));
        assertEquals("boom", ChunkErrors.serverError(error(JsonToken.VALUE_STRING, "boom", null, null)));
        assertEquals("error member array", ChunkErrors.serverError(error(JsonToken.START_ARRAY, null, null, null)));
        assertEquals("error member boolean", ChunkErrors.serverError(error(JsonToken.VALUE_TRUE, null, null, null)));
        assertEquals("error member number", ChunkErrors.serverError(error(JsonToken.VALUE_NUMBER_INT, null, null, null)));
    }

    @Test
    void longServerMessageIsCutWithTheFlag() {
        RequestError e = ChunkErrors.inStreamError(error(JsonToken.VALUE_STRING, "x".repeat(3000), null, null));
        assertEquals(ErrorTypes.MAX_MESSAGE, e.message().length());
        assertEquals(true, e.truncated());
    }

    @Test
    void decodedErrorIsWordedFromTheDecoderOutput() {
        DecodedChunk c = new DecodedChunk();
        byte[] b = "{\"error\":{\"message\":\"bad\",\"code\":\"x1\"}}".getBytes(StandardCharsets.UTF_8);
        ChunkDecoder.decode(b, 0, b.length, c);
        assertEquals("server sent an error object inside the HTTP 200 stream: bad (code=x1)",
                ChunkErrors.inStreamError(c).message());
    }

    @Test
    void noVisibleContent() {
        assertEquals(new RequestError("ValueError", "stream completed without visible content", false),
                ChunkErrors.noVisibleContent());
    }
}

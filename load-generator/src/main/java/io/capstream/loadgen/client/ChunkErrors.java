package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonToken;

/**
 * The wording of the failures a stream's content causes (spec §4.3, §6), in the reference's
 * Python terms where it has them:
 * <ul>
 * <li>a malformed chunk structure ({@link DecodedChunk.Malformed}): {@code TypeError} with the
 * message CPython would raise, e.g. {@code 'NoneType' object is not iterable ("choices" is null)},
 * followed by what the JSON was;</li>
 * <li>a truthy {@code error} member in a chunk: {@code ValueError}
 * {@code server sent an error object inside the HTTP 200 stream: <message> (type=…, code=…)}
 * (capstream deviation: the reference would ignore it and usually end with "stream completed
 * without visible content");</li>
 * <li>a stream without any non-empty content delta: {@code ValueError}
 * {@value ErrorTypes#NO_VISIBLE_CONTENT}; when it had tool calls in a run that does not send tools,
 * the message goes on to say that the model answered with a tool call (issue 29).</li>
 * </ul>
 * Called only when a request fails, never per chunk. Stateless.
 */
final class ChunkErrors {
    /** Prefix of the message of an error object inside a 2xx stream. */
    static final String IN_STREAM_ERROR = "server sent an error object inside the HTTP 200 stream: ";

    private ChunkErrors() {
    }

    /**
     * @param what  what is malformed (not null)
     * @param token the JSON token of the offending value (not null)
     * @return the {@code TypeError} failure
     */
    static RequestError typeError(DecodedChunk.Malformed what, JsonToken token) {
        return RequestError.of(ErrorTypes.TYPE_ERROR, typeErrorMessage(what, token));
    }

    /**
     * @param what  what is malformed (not null)
     * @param token the JSON token of the offending value (not null)
     * @return the text of the {@code TypeError}
     */
    static String typeErrorMessage(DecodedChunk.Malformed what, JsonToken token) {
        return switch (what) {
            case CHUNK_NOT_OBJECT -> "stream chunk is a JSON " + kind(token) + ", not an object ('" + pyType(token)
                    + "' object has no attribute 'get')";
            case CHOICES_STRING -> "'str' object has no attribute 'get' (\"choices\" is a string)";
            case CHOICES_OBJECT -> "'str' object has no attribute 'get' (\"choices\" is an object)";
            case CHOICES_NOT_ITERABLE -> "'" + pyType(token) + "' object is not iterable (\"choices\" is "
                    + kind(token) + ")";
            case CHOICE_NOT_OBJECT -> "a \"choices\" element is a JSON " + kind(token) + " ('" + pyType(token)
                    + "' object has no attribute 'get')";
        };
    }

    /**
     * @param chunk a chunk with an {@code error} member ({@link DecodedChunk#errorToken()} not null)
     * @return the {@code ValueError} failure naming the server's message
     */
    static RequestError inStreamError(DecodedChunk chunk) {
        return RequestError.of(ErrorTypes.VALUE_ERROR, IN_STREAM_ERROR + serverError(chunk));
    }

    /**
     * The server's side of an in-stream error: for an object, its message ({@code (no message)} when
     * absent) and {@code (type=…, code=…)} for those present; for a string, the string; for any other
     * truthy value, {@code error member <kind>}.
     *
     * @param chunk a chunk with an {@code error} member ({@link DecodedChunk#errorToken()} not null)
     * @return the text
     */
    static String serverError(DecodedChunk chunk) {
        JsonToken token = chunk.errorToken();
        if (token == JsonToken.VALUE_STRING) {
            return chunk.errorMessage();
        }
        if (token != JsonToken.START_OBJECT) {
            return "error member " + kind(token);
        }
        String type = chunk.errorType();
        String code = chunk.errorCode();
        StringBuilder sb = new StringBuilder(chunk.errorMessage() != null ? chunk.errorMessage() : "(no message)");
        if (type != null || code != null) {
            sb.append(" (");
            if (type != null) {
                sb.append("type=").append(type);
            }
            if (code != null) {
                sb.append(type != null ? ", " : "").append("code=").append(code);
            }
            sb.append(')');
        }
        return sb.toString();
    }

    /** @return the failure of a stream that ended without any non-empty content delta (spec §4.3) */
    static RequestError noVisibleContent() {
        return RequestError.of(ErrorTypes.VALUE_ERROR, ErrorTypes.NO_VISIBLE_CONTENT);
    }

    /**
     * The failure of a stream whose answer was tool calls without any content, in a run that does not send tools
     * (tool calls are then not output): e.g. {@code stream completed without visible content: the model answered
     * with a tool call (1 tool call, no text); send --tools to measure tool calls}.
     *
     * @param toolCalls the answer's tool calls, ≥ 1
     * @return the {@code ValueError} failure
     */
    static RequestError toolCallWithoutTools(int toolCalls) {
        return RequestError.of(ErrorTypes.VALUE_ERROR, ErrorTypes.NO_VISIBLE_CONTENT + ": "
                + ErrorTypes.TOOL_CALL_ANSWER + " (" + toolCalls + (toolCalls == 1 ? " tool call" : " tool calls")
                + ", no text); " + ErrorTypes.SEND_TOOLS);
    }

    /** @return the JSON kind of a value's first token ("array", "string", "number", "boolean", "null", "object") */
    static String kind(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "array";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            case START_OBJECT -> "object";
            default -> t.name();
        };
    }

    /** @return the Python type {@code json.loads} gives such a value ("list", "str", "int", "float", "bool", ...) */
    static String pyType(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "list";
            case VALUE_STRING -> "str";
            case VALUE_NUMBER_INT -> "int";
            case VALUE_NUMBER_FLOAT -> "float";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            case VALUE_NULL -> "NoneType";
            case START_OBJECT -> "dict";
            default -> t.name();
        };
    }
}

package io.capstream.loadgen.client;

import static io.capstream.loadgen.client.EventFields.intMember;
import static io.capstream.loadgen.client.EventFields.nonNegativeInt;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the JSON payload of one SSE event into a {@link DecodedChunk} (spec §4.1, §4.2), with a
 * streaming parser: no tree, and no string for the deltas (only their lengths are needed), except
 * the content text handed to a chunk that keeps the reply, and the strings of tool-call deltas
 * ({@code delta.tool_calls[]}: index, id, function name, argument fragments; issue 29; and the legacy
 * {@code delta.function_call}, one call; read by {@link ToolCallDeltaReader}). llama.cpp's
 * {@code timings} ({@code cache_n}, {@code prompt_n}, {@code prompt_ms}, {@code predicted_n}, {@code predicted_ms})
 * and, until the request has one, the chunk's {@code id} are read as well (the server's view, issue 33).
 *
 * <p>Like the reference's {@code json.loads}: {@code NaN} and {@code Infinity} are accepted;
 * trailing data after the value makes the payload unparseable; bytes that are not valid UTF-8 are
 * decoded with replacement characters and parsed again. The structure is read as the reference's
 * {@code chunk.get(...)} calls would: a non-object chunk, a non-iterable or non-empty string/object
 * {@code choices} and a non-object choice are recorded as {@link DecodedChunk.Malformed}; a truthy
 * {@code error} member is recorded with its message, type and code. Stateless: the payload is
 * parsed by the thread's {@link ReusableUtf8Parser} (reset per payload), all results go to the caller's
 * {@link DecodedChunk}. The common chat chunk is read first by {@link ChatChunkReader} straight from its bytes (issue
 * 33 item 4; the same results); what it does not recognise is parsed here.
 */
final class ChunkDecoder {
    private static final JsonFactory JSON = Utf8JsonFactory.INSTANCE;

    private ChunkDecoder() {
    }

    /**
     * Decodes one payload.
     *
     * @param b   bytes (only read during the call)
     * @param off offset of the payload
     * @param len length of the payload, bytes
     * @param out receives the payload's values (reset first); meaningful only for {@link Parse#PARSED}
     * @return {@link Parse#PARSED} for a whole JSON value (of any shape), {@link Parse#INCOMPLETE} when the
     *         payload ends inside a value (a following data line may complete it), else {@link Parse#INVALID};
     *         never throws
     */
    static Parse decode(byte[] b, int off, int len, DecodedChunk out) {
        return decode(b, off, len, out, false);
    }

    /**
     * As {@link #decode(byte[], int, int, DecodedChunk)}; with {@code textChoices} (the completions endpoint) a
     * choice's non-empty {@code text} string is a content delta, as {@code delta.content} is for chat.
     *
     * @param b           bytes (only read during the call)
     * @param off         offset of the payload
     * @param len         length of the payload, bytes
     * @param out         receives the payload's values (reset first)
     * @param textChoices read {@code choices[].text} as content (completions), else ignore it (chat)
     * @return as {@link #decode(byte[], int, int, DecodedChunk)}; never throws
     */
    static Parse decode(byte[] b, int off, int len, DecodedChunk out, boolean textChoices) {
        if (ChatChunkReader.read(b, off, len, out, textChoices)) {
            return Parse.PARSED; // the common chunk, read from its bytes (issue 33 item 4)
        }
        return decodeWithJackson(b, off, len, out, textChoices);
    }

    /**
     * As {@link #decode(byte[], int, int, DecodedChunk, boolean)} (same parameters and result), always with Jackson:
     * the path for every payload {@link ChatChunkReader} does not recognise, and the reference it is tested against.
     */
    static Parse decodeWithJackson(byte[] b, int off, int len, DecodedChunk out, boolean textChoices) {
        ReusableUtf8Parser reused = ReusableUtf8Parser.acquire(b, off, len); // the thread's parser, reset (issue 33)
        boolean finished = false;
        try {
            Parse r = chunk(reused, out, textChoices) ? Parse.PARSED : Parse.INVALID;
            finished = true;
            return r;
        } catch (IOException | RuntimeException ex) {
            if (JsonPrefix.isProperPrefix(b, off, len)) {
                return Parse.INCOMPLETE; // the end came inside the value: a later data line may complete it
            }
            if (!hasNonAscii(b, off, len)) {
                return Parse.INVALID;
            }
        } finally {
            reused.release(finished);
        }
        // invalid UTF-8 somewhere: decode with replacement characters, like the reference, and retry
        try (JsonParser p = JSON.createParser(new String(b, off, len, StandardCharsets.UTF_8))) {
            return chunk(p, out, textChoices) ? Parse.PARSED : Parse.INVALID;
        } catch (IOException | RuntimeException ex) {
            return Parse.INVALID;
        }
    }

    /** @return whether nothing follows the chunk's value (trailing data makes it unparseable) */
    private static boolean atEnd(JsonParser p) throws IOException {
        try {
            return p.nextToken() == null;
        } catch (JsonEOFException ex) {
            return false; // a cut token after a whole value is trailing data, not an incomplete value
        }
    }

    private static boolean chunk(JsonParser p, DecodedChunk out, boolean textChoices) throws IOException {
        out.reset();
        JsonToken t = p.nextToken();
        if (t == null) {
            return false;
        }
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            if (!atEnd(p)) {
                return false;
            }
            out.malformed(DecodedChunk.Malformed.CHUNK_NOT_OBJECT, t);
            return true;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "usage" -> usage(p, v, out);
                case "choices" -> choices(p, v, out, textChoices);
                case "error" -> error(p, v, out);
                case "timings" -> timings(p, v, out);
                case "id" -> {
                    if (v == JsonToken.VALUE_STRING && out.wantsServerId()) {
                        out.serverId(p.getText()); // once per request (issue 33: the server's view)
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        return atEnd(p);
    }

    private static void usage(JsonParser p, JsonToken v, DecodedChunk out) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        boolean any = false;
        long prompt = -1;
        long completion = -1;
        long cached = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            any = true;
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "prompt_tokens" -> prompt = nonNegativeInt(p, x);
                case "completion_tokens" -> completion = nonNegativeInt(p, x);
                case "prompt_tokens_details" -> cached = intMember(p, x, "cached_tokens", cached);
                default -> p.skipChildren();
            }
        }
        if (any) { // truthy usage: the last one wins (spec §4.2)
            out.usage(prompt, completion, cached);
        }
    }

    /**
     * llama.cpp's {@code timings} object: {@code cache_n} (prompt tokens taken from the prefix cache), and for the
     * server's view (issue 33) {@code prompt_n}, {@code prompt_ms}, {@code predicted_n}, {@code predicted_ms}.
     */
    private static void timings(JsonParser p, JsonToken v, DecodedChunk out) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        long promptN = -1;
        double promptMs = -1;
        long predictedN = -1;
        double predictedMs = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "cache_n" -> out.timings().cacheN(nonNegativeInt(p, x));
                case "prompt_n" -> promptN = nonNegativeInt(p, x);
                case "prompt_ms" -> promptMs = nonNegativeMs(p, x);
                case "predicted_n" -> predictedN = nonNegativeInt(p, x);
                case "predicted_ms" -> predictedMs = nonNegativeMs(p, x);
                default -> p.skipChildren();
            }
        }
        out.timings().set(promptN, promptMs, predictedN, predictedMs);
    }

    /** @return the current token as a finite number ≥ 0, else -1 (the value is consumed) */
    private static double nonNegativeMs(JsonParser p, JsonToken x) throws IOException {
        if (x == JsonToken.VALUE_NUMBER_INT || x == JsonToken.VALUE_NUMBER_FLOAT) {
            double d = p.getDoubleValue();
            return Double.isFinite(d) && d >= 0 ? d : -1;
        }
        p.skipChildren();
        return -1;
    }

    private static void choices(JsonParser p, JsonToken v, DecodedChunk out, boolean textChoices) throws IOException {
        // the reference iterates chunk.get("choices", []) and calls .get on each element
        if (v != JsonToken.START_ARRAY) {
            if (v == JsonToken.VALUE_STRING) {
                if (p.getTextLength() > 0) {
                    out.malformed(DecodedChunk.Malformed.CHOICES_STRING, v);
                }
            } else if (v == JsonToken.START_OBJECT) {
                if (p.nextToken() != JsonToken.END_OBJECT) {
                    skipRestOfContainer(p);
                    out.malformed(DecodedChunk.Malformed.CHOICES_OBJECT, v);
                }
            } else {
                out.malformed(DecodedChunk.Malformed.CHOICES_NOT_ITERABLE, v);
            }
            return;
        }
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            if (e != JsonToken.START_OBJECT) {
                out.malformed(DecodedChunk.Malformed.CHOICE_NOT_OBJECT, e);
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken x = p.nextToken();
                if ("delta".equals(name) && x == JsonToken.START_OBJECT) {
                    delta(p, out);
                } else if (textChoices && "text".equals(name) && x == JsonToken.VALUE_STRING) {
                    if (p.getTextLength() > 0) {
                        out.contentDelta();
                        contentText(p, out);
                    }
                } else if ("finish_reason".equals(name) && x == JsonToken.VALUE_STRING) {
                    out.finishReason(finish(p));
                } else {
                    p.skipChildren();
                }
            }
        }
    }

    private static void delta(JsonParser p, DecodedChunk out) throws IOException {
        boolean content = false;
        int rcState = 0; // 0 falsy/absent, 1 non-empty string, 2 truthy non-string
        boolean reasoning = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "content" -> {
                    content = x == JsonToken.VALUE_STRING && p.getTextLength() > 0;
                    if (content) {
                        contentText(p, out);
                    }
                }
                case "reasoning_content" -> rcState = x == JsonToken.VALUE_STRING
                        ? (p.getTextLength() > 0 ? 1 : 0) : truthy(p, x) ? 2 : 0;
                case "reasoning" -> reasoning = x == JsonToken.VALUE_STRING && p.getTextLength() > 0;
                case "tool_calls" -> {
                    if (x == JsonToken.START_ARRAY) {
                        ToolCallDeltaReader.read(p, out);
                    }
                }
                case "function_call" -> {
                    if (x == JsonToken.START_OBJECT) {
                        ToolCallDeltaReader.readFunctionCall(p, out);
                    }
                }
                default -> {
                }
            }
            p.skipChildren();
        }
        if (rcState == 1 || (rcState == 0 && reasoning)) {
            out.reasoningDelta();
        }
        if (content) {
            out.contentDelta();
        }
    }

    /** Hands the current string token to the reply when the chunk keeps it (no string is made otherwise). */
    private static void contentText(JsonParser p, DecodedChunk out) throws IOException {
        if (out.keepsReply()) {
            out.contentText(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        }
    }

    private static boolean truthy(JsonParser p, JsonToken x) throws IOException {
        switch (x) {
            case VALUE_NULL, VALUE_FALSE:
                return false;
            case VALUE_TRUE:
                return true;
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT:
                return p.getDoubleValue() != 0.0;
            case VALUE_STRING:
                return p.getTextLength() > 0;
            case START_ARRAY:
                return p.nextToken() != JsonToken.END_ARRAY && skipRestOfContainer(p);
            case START_OBJECT:
                return p.nextToken() != JsonToken.END_OBJECT && skipRestOfContainer(p);
            default:
                return false;
        }
    }

    private static boolean skipRestOfContainer(JsonParser p) throws IOException {
        // positioned on the first member/element token inside a container: skip to its end
        int depth = 1;
        JsonToken t = p.currentToken();
        while (true) {
            if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
                depth++;
            } else if (t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT) {
                depth--;
                if (depth == 0) {
                    return true;
                }
            }
            t = p.nextToken();
            if (t == null) {
                throw new IOException("unexpected end");
            }
        }
    }

    private static void error(JsonParser p, JsonToken v, DecodedChunk out) throws IOException {
        if (v == JsonToken.START_OBJECT) {
            String message = null;
            String type = null;
            String code = null;
            boolean any = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                any = true;
                String name = p.currentName();
                JsonToken x = p.nextToken();
                if (x.isScalarValue() && x != JsonToken.VALUE_NULL) {
                    switch (name) {
                        case "message" -> message = p.getText();
                        case "type" -> type = p.getText();
                        case "code" -> code = p.getText();
                        default -> {
                        }
                    }
                }
                p.skipChildren();
            }
            if (any) {
                out.error(v, message, type, code);
            }
            return; // the loop consumed the object
        }
        if (v == JsonToken.VALUE_STRING) {
            if (p.getTextLength() > 0) {
                out.error(v, p.getText(), null, null);
            }
        } else if (truthy(p, v)) {
            out.error(v, null, null, null);
        }
        if (v != JsonToken.START_ARRAY) {
            p.skipChildren(); // truthy() already consumed an array
        }
    }

    private static String finish(JsonParser p) throws IOException {
        int n = p.getTextLength();
        char[] c = p.getTextCharacters();
        int o = p.getTextOffset();
        if (n == 4 && c[o] == 's' && c[o + 1] == 't' && c[o + 2] == 'o' && c[o + 3] == 'p') {
            return "stop";
        }
        if (n == 6 && new String(c, o, n).equals("length")) {
            return "length";
        }
        return p.getText();
    }

    private static boolean hasNonAscii(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (b[i] < 0) {
                return true;
            }
        }
        return false;
    }
}

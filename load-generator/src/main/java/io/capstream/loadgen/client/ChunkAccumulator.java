package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Interprets the lines of one streamed chat completion (spec §4.1, §4.2) and keeps the request's
 * raw measurements: first-output and first-content times, content and reasoning delta counts, the
 * last truthy usage, the last {@code finish_reason}, the largest gap between consecutive
 * {@code data:} lines, and a failure when the stream is malformed.
 *
 * <p>The lines are framed into payloads by an {@link SseEventAssembler} (one {@code data:} line,
 * or the joined data lines of a multi-line event; {@code [DONE]}). Each payload is parsed as JSON
 * with a streaming parser (no tree, no string for deltas: only their lengths are needed) and
 * applied only when the whole payload parses (unparseable payloads are skipped, like
 * {@code json.loads} failing). Bytes that are not valid
 * UTF-8 are decoded with replacement characters and parsed again. A non-object chunk or a
 * non-iterable {@code choices} is a {@code TypeError} failure; a truthy {@code error} member is a
 * {@code ValueError} failure naming the server's message (capstream deviation: the reference would
 * ignore it and usually end with "stream completed without visible content").
 *
 * <p>Times are {@code now − t0} in ns, where {@code now} is set by {@link #at(long)} when the
 * bytes arrive. Not thread-safe: one instance per request, used on its event loop.
 */
public final class ChunkAccumulator implements SseLineSplitter.LineHandler {
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private final long t0;
    private final SseEventAssembler events = new SseEventAssembler(new Payloads());

    private long ttfo = -1;
    private long ttft = -1;
    private int contentChunks;
    private int reasoningChunks;
    private long promptTokens = -1;
    private long completionTokens = -1;
    private long cachedTokens = -1;
    private boolean usageSeen;
    private String finishReason;
    private RequestError failure;

    // scratch of the payload being parsed, applied only when the whole payload parsed
    private boolean sUsage;
    private long sPrompt;
    private long sCompletion;
    private long sCached;
    private int sContent;
    private int sReasoning;
    private String sFinish;
    private String sError;
    private String sTypeError;

    /** @param t0Ns the request's t0, {@code System.nanoTime()} just before connecting */
    public ChunkAccumulator(long t0Ns) {
        this.t0 = t0Ns;
        events.at(t0Ns);
    }

    /**
     * Sets the arrival time of the bytes about to be fed.
     *
     * @param nowNs {@code System.nanoTime()} when the chunk arrived
     */
    public void at(long nowNs) {
        events.at(nowNs);
    }

    /** Hands the line to the {@link SseEventAssembler}; {@inheritDoc} */
    @Override
    public boolean onLine(byte[] b, int off, int len) {
        return events.onLine(b, off, len);
    }

    /** Ends a multi-line event left open by the end of the body; {@inheritDoc} */
    @Override
    public boolean onEnd() {
        return events.onEnd();
    }

    /** The accumulator's side of its {@link SseEventAssembler}. */
    private final class Payloads implements SseEventAssembler.PayloadHandler {
        @Override
        public Parse parse(byte[] b, int off, int len) {
            return ChunkAccumulator.this.parse(b, off, len);
        }

        @Override
        public boolean apply(long atNs) {
            return ChunkAccumulator.this.apply(atNs - t0);
        }
    }

    private boolean apply(long t) {
        if (sUsage) {
            usageSeen = true;
            promptTokens = sPrompt;
            completionTokens = sCompletion;
            cachedTokens = sCached;
        }
        if (sTypeError != null) {
            failure = RequestError.of(ErrorTypes.TYPE_ERROR, sTypeError);
            return false;
        }
        if (sReasoning > 0 || sContent > 0) {
            if (ttfo < 0) {
                ttfo = t;
            }
            reasoningChunks += sReasoning;
        }
        if (sContent > 0) {
            if (ttft < 0) {
                ttft = t;
            }
            contentChunks += sContent;
        }
        if (sFinish != null) {
            finishReason = sFinish;
        }
        if (sError != null) {
            failure = RequestError.of(ErrorTypes.VALUE_ERROR, "server sent an error object inside the HTTP 200 stream: " + sError);
            return false;
        }
        return true;
    }

    private Parse parse(byte[] b, int off, int len) {
        try (JsonParser p = JSON.createParser(b, off, len)) {
            return parseChunk(p) ? Parse.PARSED : Parse.INVALID;
        } catch (JsonEOFException ex) {
            return Parse.INCOMPLETE; // the end came inside the value: a later data line may complete it
        } catch (IOException | RuntimeException ex) {
            if (!hasNonAscii(b, off, len)) {
                return Parse.INVALID;
            }
        }
        // invalid UTF-8 somewhere: decode with replacement characters, like the reference, and retry
        try (JsonParser p = JSON.createParser(new String(b, off, len, StandardCharsets.UTF_8))) {
            return parseChunk(p) ? Parse.PARSED : Parse.INVALID;
        } catch (JsonEOFException ex) {
            return Parse.INCOMPLETE;
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

    private boolean parseChunk(JsonParser p) throws IOException {
        sUsage = false;
        sPrompt = -1;
        sCompletion = -1;
        sCached = -1;
        sContent = 0;
        sReasoning = 0;
        sFinish = null;
        sError = null;
        sTypeError = null;
        JsonToken t = p.nextToken();
        if (t == null) {
            return false;
        }
        if (t != JsonToken.START_OBJECT) {
            String kind = kind(t);
            p.skipChildren();
            if (!atEnd(p)) {
                return false;
            }
            sTypeError = "stream chunk is a JSON " + kind + ", not an object ('" + pyType(t) + "' object has no attribute 'get')";
            return true;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "usage" -> usage(p, v);
                case "choices" -> choices(p, v);
                case "error" -> error(p, v);
                default -> p.skipChildren();
            }
        }
        return atEnd(p);
    }

    private void usage(JsonParser p, JsonToken v) throws IOException {
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
                case "prompt_tokens_details" -> {
                    if (x == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String n2 = p.currentName();
                            JsonToken y = p.nextToken();
                            if ("cached_tokens".equals(n2)) {
                                cached = nonNegativeInt(p, y);
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (any) { // truthy usage: the last one wins (spec §4.2)
            sUsage = true;
            sPrompt = prompt;
            sCompletion = completion;
            sCached = cached;
        }
    }

    private static long nonNegativeInt(JsonParser p, JsonToken x) throws IOException {
        if (x == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return -1;
            }
            long v = p.getLongValue();
            return v >= 0 ? v : -1;
        }
        p.skipChildren();
        return -1;
    }

    private void choices(JsonParser p, JsonToken v) throws IOException {
        // the reference iterates chunk.get("choices", []) and calls .get on each element
        if (v != JsonToken.START_ARRAY) {
            String err = null;
            if (v == JsonToken.VALUE_STRING) {
                if (p.getTextLength() > 0) {
                    err = "'str' object has no attribute 'get' (\"choices\" is a string)";
                }
            } else if (v == JsonToken.START_OBJECT) {
                if (p.nextToken() != JsonToken.END_OBJECT) {
                    skipRestOfContainer(p);
                    err = "'str' object has no attribute 'get' (\"choices\" is an object)";
                }
            } else {
                err = "'" + pyType(v) + "' object is not iterable (\"choices\" is " + kind(v) + ")";
            }
            if (err != null && sTypeError == null) {
                sTypeError = err;
            }
            return;
        }
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            if (e != JsonToken.START_OBJECT) {
                if (sTypeError == null) {
                    sTypeError = "a \"choices\" element is a JSON " + kind(e) + " ('" + pyType(e) + "' object has no attribute 'get')";
                }
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken x = p.nextToken();
                if ("delta".equals(name) && x == JsonToken.START_OBJECT) {
                    delta(p);
                } else if ("finish_reason".equals(name) && x == JsonToken.VALUE_STRING) {
                    sFinish = finish(p);
                } else {
                    p.skipChildren();
                }
            }
        }
    }

    private void delta(JsonParser p) throws IOException {
        boolean content = false;
        int rcState = 0; // 0 falsy/absent, 1 non-empty string, 2 truthy non-string
        boolean reasoning = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "content" -> content = x == JsonToken.VALUE_STRING && p.getTextLength() > 0;
                case "reasoning_content" -> rcState = x == JsonToken.VALUE_STRING
                        ? (p.getTextLength() > 0 ? 1 : 0) : truthy(p, x) ? 2 : 0;
                case "reasoning" -> reasoning = x == JsonToken.VALUE_STRING && p.getTextLength() > 0;
                default -> {
                }
            }
            p.skipChildren();
        }
        if (rcState == 1 || (rcState == 0 && reasoning)) {
            sReasoning++;
        }
        if (content) {
            sContent++;
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

    private void error(JsonParser p, JsonToken v) throws IOException {
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
                StringBuilder sb = new StringBuilder(message != null ? message : "(no message)");
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
                sError = sb.toString();
            }
        } else if (v == JsonToken.VALUE_STRING) {
            if (p.getTextLength() > 0) {
                sError = p.getText();
            }
        } else if (truthy(p, v)) {
            sError = "error member " + kind(v);
        }
        if (v == JsonToken.START_ARRAY || v == JsonToken.START_OBJECT) {
            // truthy() for containers and the object loop above already consumed them
            return;
        }
        p.skipChildren();
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

    private static String kind(JsonToken t) {
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

    private static String pyType(JsonToken t) {
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

    private static boolean hasNonAscii(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (b[i] < 0) {
                return true;
            }
        }
        return false;
    }

    /** @return whether {@code data: [DONE]} was seen */
    public boolean done() {
        return events.done();
    }

    /** @return a stream-level failure (TypeError, in-stream error object), or null */
    public RequestError failure() {
        return failure;
    }

    /** @return time to first output (reasoning or content), ns after t0, or -1 when none */
    public long ttfoNs() {
        return ttfo;
    }

    /** @return time to first non-empty content delta, ns after t0, or -1 when none */
    public long ttftNs() {
        return ttft;
    }

    /** @return non-empty content deltas counted */
    public int contentChunks() {
        return contentChunks;
    }

    /** @return non-empty reasoning deltas counted */
    public int reasoningChunks() {
        return reasoningChunks;
    }

    /** @return whether a truthy usage object was seen */
    public boolean usageSeen() {
        return usageSeen;
    }

    /** @return usage.prompt_tokens when an integer ≥ 0, else -1 */
    public long promptTokens() {
        return promptTokens;
    }

    /** @return usage.completion_tokens when an integer ≥ 0, else -1 */
    public long completionTokens() {
        return completionTokens;
    }

    /** @return usage.prompt_tokens_details.cached_tokens when an integer ≥ 0, else -1 */
    public long cachedTokens() {
        return cachedTokens;
    }

    /** @return the last finish_reason, or null */
    public String finishReason() {
        return finishReason;
    }

    /** @return the largest gap between consecutive {@code data:} lines, ns; -1 before the first */
    public long maxGapNs() {
        return events.maxGapNs();
    }

    /** @return {@code data:} lines seen */
    public int dataLines() {
        return events.dataLines();
    }
}

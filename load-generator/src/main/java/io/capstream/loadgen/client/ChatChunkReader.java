package io.capstream.loadgen.client;

import static io.capstream.loadgen.client.JsonBytes.NO;
import static io.capstream.loadgen.client.JsonBytes.bytes;
import static io.capstream.loadgen.client.JsonBytes.is;
import static io.capstream.loadgen.client.JsonBytes.name;
import static io.capstream.loadgen.client.JsonBytes.next;
import static io.capstream.loadgen.client.JsonBytes.skip;
import static io.capstream.loadgen.client.JsonBytes.string;
import static io.capstream.loadgen.client.JsonBytes.valueStart;
import static io.capstream.loadgen.client.JsonBytes.ws;

/**
 * The fast path of {@link ChunkDecoder} (issue 33 item 4): reads the common chat-completions chunk straight from its
 * bytes, e.g. {@code {"id":"..","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":".."},
 * "finish_reason":null}]}} as vLLM, SGLang, llama.cpp and the oracle send it, in any member order, with any JSON
 * whitespace and with any extra members (skipped after being checked), and fills the {@link DecodedChunk} exactly as
 * the Jackson path would. It only ever answers "read, the payload is this whole JSON object" or "not mine": anything
 * it does not fully recognise makes it return false, and the caller then decodes the payload with Jackson from the
 * start (the chunk is reset there), so it never decides what is invalid or incomplete.
 *
 * <p>Recognised: a JSON object, alone in the payload, of at most {@value #MAX_BYTES} bytes; its {@code id} (a string,
 * read while {@link DecodedChunk#wantsServerId()}), {@code choices} (an array of objects: {@code delta} with
 * {@code content}, {@code reasoning_content} (string, null, true or false), {@code reasoning}, an empty
 * {@code tool_calls} array; a completions {@code text}; a string {@code finish_reason}), {@code usage} (an object:
 * {@code prompt_tokens}, {@code completion_tokens}, {@code prompt_tokens_details.cached_tokens}), an {@code error}
 * that is null or false, and any other member whose value is valid JSON (strings, numbers, literals, nested
 * containers up to {@value JsonBytes#MAX_DEPTH} deep). Strings: the escapes {@code \" \\ \/ \b \f \n \r \t \}{@code uXXXX} and
 * well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no encoded surrogates); numbers: the JSON grammar, at
 * most {@value JsonBytes#MAX_NUMBER} characters. Left to Jackson: member names with escapes, non-array {@code choices}, a
 * non-object choice, tool calls, {@code function_call}, a truthy (or non-null, non-false) {@code error}, llama.cpp's
 * {@code timings} object, a {@code reasoning_content} that is a number or a container, integers of more than 18
 * digits where their value is read, {@code NaN}/{@code Infinity}, any byte outside the grammar above, and anything
 * after the object. Stateless, allocation-free unless a string is kept (the server id once per request, a finish
 * reason other than {@code stop}/{@code length}, the content text when the chunk keeps the reply).
 */
final class ChatChunkReader {
    /** Longest payload read here, bytes (well under Jackson's name and number limits). */
    static final int MAX_BYTES = 16 * 1024;

    private static final byte[] ID = bytes("id");
    private static final byte[] CHOICES = bytes("choices");
    private static final byte[] USAGE = bytes("usage");
    private static final byte[] ERROR = bytes("error");
    private static final byte[] TIMINGS = bytes("timings");
    private static final byte[] DELTA = bytes("delta");
    private static final byte[] TEXT = bytes("text");
    private static final byte[] FINISH_REASON = bytes("finish_reason");
    private static final byte[] CONTENT = bytes("content");
    private static final byte[] REASONING_CONTENT = bytes("reasoning_content");
    private static final byte[] REASONING = bytes("reasoning");
    private static final byte[] TOOL_CALLS = bytes("tool_calls");
    private static final byte[] FUNCTION_CALL = bytes("function_call");
    private static final byte[] PROMPT_TOKENS = bytes("prompt_tokens");
    private static final byte[] COMPLETION_TOKENS = bytes("completion_tokens");
    private static final byte[] PROMPT_TOKENS_DETAILS = bytes("prompt_tokens_details");
    private static final byte[] CACHED_TOKENS = bytes("cached_tokens");

    private ChatChunkReader() {
    }

    /**
     * Reads one payload when it is a chunk of the recognised shape.
     *
     * @param b           bytes (only read during the call)
     * @param off         offset of the payload
     * @param len         length of the payload, bytes
     * @param out         receives the payload's values (reset first); when this returns false it holds a partial
     *                    result that the Jackson path resets
     * @param textChoices read {@code choices[].text} as content (completions), as {@link ChunkDecoder} does
     * @return true when the payload is one whole JSON object of the recognised shape and {@code out} holds exactly what
     *         {@link ChunkDecoder}'s Jackson path gives; false otherwise (decode it with Jackson)
     */
    static boolean read(byte[] b, int off, int len, DecodedChunk out, boolean textChoices) {
        if (len > MAX_BYTES || len < 2) {
            return false;
        }
        int end = off + len;
        out.reset();
        int p = ws(b, off, end);
        if (p >= end || b[p] != '{') {
            return false;
        }
        p = chunk(b, p + 1, end, out, textChoices);
        return p >= 0 && ws(b, p, end) == end;
    }

    /** The chunk object's members; {@code p} is after its {@code '{'}. @return the position after its {@code '}'} */
    private static int chunk(byte[] b, int p, int end, DecodedChunk out, boolean textChoices) {
        p = ws(b, p, end);
        if (p < end && b[p] == '}') {
            return p + 1;
        }
        while (true) {
            int ns = p + 1;
            int ne = name(b, p, end);
            if (ne < 0) {
                return NO;
            }
            p = valueStart(b, ne + 1, end);
            if (p < 0) {
                return NO;
            }
            byte c = b[p];
            if (is(b, ns, ne, CHOICES)) {
                p = c == '[' ? choices(b, p + 1, end, out, textChoices) : NO; // other kinds: malformed (Jackson's)
            } else if (is(b, ns, ne, ID) && c == '"') {
                int se = string(b, p + 1, end);
                if (se >= 0 && out.wantsServerId()) {
                    out.serverId(JsonStrings.decode(b, p + 1, se)); // once per request (issue 33: the server's view)
                }
                p = se < 0 ? NO : se + 1;
            } else if (is(b, ns, ne, USAGE) && c == '{') {
                p = usage(b, p + 1, end, out);
            } else if (is(b, ns, ne, ERROR)) {
                p = c == 'n' || c == 'f' ? skip(b, p, end, 0) : NO; // null or false: no error; others are Jackson's
            } else if (is(b, ns, ne, TIMINGS) && c == '{') {
                return NO; // llama.cpp's timings, once per request: Jackson's
            } else {
                p = skip(b, p, end, 0);
            }
            p = next(b, p, end, '}');
            if (p < NO) {
                return ~p;
            }
            if (p == NO) {
                return NO;
            }
        }
    }

    /** {@code choices}; {@code p} is after its {@code '['}. @return the position after its {@code ']'} */
    private static int choices(byte[] b, int p, int end, DecodedChunk out, boolean textChoices) {
        p = ws(b, p, end);
        if (p < end && b[p] == ']') {
            return p + 1;
        }
        while (true) {
            if (p >= end || b[p] != '{') {
                return NO; // a choice that is not an object: malformed (Jackson's)
            }
            p = choice(b, p + 1, end, out, textChoices);
            p = next(b, p, end, ']');
            if (p < NO) {
                return ~p;
            }
            if (p == NO) {
                return NO;
            }
        }
    }

    /** One choice object; {@code p} is after its {@code '{'}. @return the position after its {@code '}'} */
    private static int choice(byte[] b, int p, int end, DecodedChunk out, boolean textChoices) {
        p = ws(b, p, end);
        if (p < end && b[p] == '}') {
            return p + 1;
        }
        while (true) {
            int ns = p + 1;
            int ne = name(b, p, end);
            if (ne < 0) {
                return NO;
            }
            p = valueStart(b, ne + 1, end);
            if (p < 0) {
                return NO;
            }
            byte c = b[p];
            if (is(b, ns, ne, DELTA) && c == '{') {
                p = delta(b, p + 1, end, out);
            } else if (textChoices && is(b, ns, ne, TEXT) && c == '"') {
                int se = string(b, p + 1, end);
                if (se > p + 1) {
                    out.contentDelta();
                    contentText(b, p + 1, se, out);
                }
                p = se < 0 ? NO : se + 1;
            } else if (is(b, ns, ne, FINISH_REASON) && c == '"') {
                int se = string(b, p + 1, end);
                if (se >= 0) {
                    out.finishReason(finish(b, p + 1, se));
                }
                p = se < 0 ? NO : se + 1;
            } else {
                p = skip(b, p, end, 0);
            }
            p = next(b, p, end, '}');
            if (p < NO) {
                return ~p;
            }
            if (p == NO) {
                return NO;
            }
        }
    }

    /**
     * A choice's {@code delta} object, as {@link ChunkDecoder}'s: the last {@code content}, {@code reasoning_content}
     * and {@code reasoning} members decide; {@code p} is after its {@code '{'}. @return the position after its
     * {@code '}'}
     */
    private static int delta(byte[] b, int p, int end, DecodedChunk out) {
        boolean content = false;
        int rcState = 0; // 0 falsy/absent, 1 non-empty string, 2 truthy non-string
        boolean reasoning = false;
        p = ws(b, p, end);
        if (p < end && b[p] == '}') {
            return p + 1;
        }
        while (true) {
            int ns = p + 1;
            int ne = name(b, p, end);
            if (ne < 0) {
                return NO;
            }
            p = valueStart(b, ne + 1, end);
            if (p < 0) {
                return NO;
            }
            byte c = b[p];
            if (is(b, ns, ne, CONTENT)) {
                if (c == '"') {
                    int se = string(b, p + 1, end);
                    content = se > p + 1;
                    if (content) {
                        contentText(b, p + 1, se, out);
                    }
                    p = se < 0 ? NO : se + 1;
                } else {
                    content = false;
                    p = skip(b, p, end, 0);
                }
            } else if (is(b, ns, ne, REASONING_CONTENT)) {
                if (c == '"') {
                    int se = string(b, p + 1, end);
                    rcState = se > p + 1 ? 1 : 0;
                    p = se < 0 ? NO : se + 1;
                } else if (c == 'n' || c == 'f' || c == 't') {
                    rcState = c == 't' ? 2 : 0;
                    p = skip(b, p, end, 0);
                } else {
                    return NO; // a number or a container: its truthiness is Jackson's
                }
            } else if (is(b, ns, ne, REASONING)) {
                if (c == '"') {
                    int se = string(b, p + 1, end);
                    reasoning = se > p + 1;
                    p = se < 0 ? NO : se + 1;
                } else {
                    reasoning = false;
                    p = skip(b, p, end, 0);
                }
            } else if (is(b, ns, ne, TOOL_CALLS) && c == '[') {
                p = ws(b, p + 1, end);
                p = p < end && b[p] == ']' ? p + 1 : NO; // an empty array has no calls; others are Jackson's
            } else if (is(b, ns, ne, FUNCTION_CALL) && c == '{') {
                return NO;
            } else {
                p = skip(b, p, end, 0);
            }
            p = next(b, p, end, '}');
            if (p == NO) {
                return NO;
            }
            if (p < NO) {
                if (rcState == 1 || (rcState == 0 && reasoning)) {
                    out.reasoningDelta();
                }
                if (content) {
                    out.contentDelta();
                }
                return ~p;
            }
        }
    }

    /** A {@code usage} object; {@code p} is after its {@code '{'}. @return the position after its {@code '}'} */
    private static int usage(byte[] b, int p, int end, DecodedChunk out) {
        long prompt = -1;
        long completion = -1;
        long cached = -1;
        p = ws(b, p, end);
        if (p < end && b[p] == '}') {
            return p + 1; // falsy: not recorded
        }
        while (true) {
            int ns = p + 1;
            int ne = name(b, p, end);
            if (ne < 0) {
                return NO;
            }
            int v = valueStart(b, ne + 1, end);
            if (v < 0) {
                return NO;
            }
            p = skip(b, v, end, 0);
            if (p < 0) {
                return NO;
            }
            if (is(b, ns, ne, PROMPT_TOKENS)) {
                prompt = nonNegativeInt(b, v, p);
            } else if (is(b, ns, ne, COMPLETION_TOKENS)) {
                completion = nonNegativeInt(b, v, p);
            } else if (is(b, ns, ne, PROMPT_TOKENS_DETAILS) && b[v] == '{') {
                cached = cachedTokens(b, v + 1, end, cached);
            }
            if (prompt == NOT_MINE || completion == NOT_MINE || cached == NOT_MINE) {
                return NO;
            }
            p = next(b, p, end, '}');
            if (p == NO) {
                return NO;
            }
            if (p < NO) {
                out.usage(prompt, completion, cached); // truthy usage: the last one wins (spec §4.2)
                return ~p;
            }
        }
    }

    /**
     * {@code prompt_tokens_details} (already checked by {@link #skip}); {@code p} is after its {@code '{'}.
     *
     * @return the last {@code cached_tokens} as {@link #nonNegativeInt}, else {@code absent}
     */
    private static long cachedTokens(byte[] b, int p, int end, long absent) {
        long n = absent;
        p = ws(b, p, end);
        if (b[p] == '}') {
            return n;
        }
        while (true) {
            int ns = p + 1;
            int ne = name(b, p, end);
            int v = valueStart(b, ne + 1, end);
            p = skip(b, v, end, 0);
            if (is(b, ns, ne, CACHED_TOKENS)) {
                n = nonNegativeInt(b, v, p);
            }
            if (n == NOT_MINE) {
                return NOT_MINE;
            }
            p = next(b, p, end, '}');
            if (p < NO) {
                return n;
            }
        }
    }

    /** {@link #nonNegativeInt}'s answer for an integer whose value is not read here. */
    private static final long NOT_MINE = Long.MIN_VALUE;

    /**
     * As {@link EventFields#nonNegativeInt}: the value {@code b[s, e)} (checked by {@link #skip}) when it is an integer
     * token &ge; 0, else -1; {@link #NOT_MINE} for an integer of more than 18 digits (Jackson decides whether it fits a
     * long).
     */
    private static long nonNegativeInt(byte[] b, int s, int e) {
        boolean negative = b[s] == '-';
        int d = negative ? s + 1 : s;
        if (d >= e || b[d] < '0' || b[d] > '9') {
            return -1; // not a number
        }
        long n = 0;
        for (int i = d; i < e; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                return -1; // a fraction or an exponent: a float token
            }
            n = n * 10 + (c - '0');
        }
        if (e - d > 18) {
            return NOT_MINE;
        }
        return negative && n != 0 ? -1 : n;
    }

    /** @return the finish reason's text; the shared {@code "stop"} and {@code "length"}, as {@link ChunkDecoder} */
    private static String finish(byte[] b, int s, int e) {
        if (e - s == 4 && b[s] == 's' && b[s + 1] == 't' && b[s + 2] == 'o' && b[s + 3] == 'p') {
            return "stop";
        }
        String text = JsonStrings.decode(b, s, e);
        return text.equals("length") ? "length" : text.equals("stop") ? "stop" : text; // also when escaped
    }

    private static void contentText(byte[] b, int s, int e, DecodedChunk out) {
        if (out.keepsReply()) {
            out.contentText(JsonStrings.decode(b, s, e));
        }
    }
}

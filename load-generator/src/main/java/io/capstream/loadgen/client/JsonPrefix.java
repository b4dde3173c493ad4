package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Decides whether a payload is a proper prefix of a JSON value, that is whether more bytes could still complete it,
 * by the state of Jackson's non-blocking parser fed the bytes (never by which exception a blocking parser happens to
 * throw at the end of the input): the prefix is proper when the parser asks for more input
 * ({@link JsonToken#NOT_AVAILABLE}) after at least one byte of a value and before the root value is complete, without
 * an error. This holds wherever the bytes end: between tokens, inside a string, an escape, a number, a literal
 * ({@code tru}, {@code Na}) or a multi-byte UTF-8 character. {@code NaN} and {@code Infinity} are accepted, as by the
 * decoders. Used only when a payload did not parse, never per chunk. Stateless.
 */
final class JsonPrefix {
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private JsonPrefix() {
    }

    /**
     * @param b   bytes (only read during the call)
     * @param off offset of the payload
     * @param len length of the payload, bytes
     * @return true when the bytes are a proper prefix of a JSON value (more input could complete it); false when
     *         they are empty or whitespace, invalid JSON, or a whole value (with or without data after it). Bytes that
     *         are not valid UTF-8 are decoded with replacement characters first, as the decoders do. Never throws.
     */
    static boolean isProperPrefix(byte[] b, int off, int len) {
        Boolean r = check(b, off, len);
        if (r != null) {
            return r;
        }
        byte[] replaced = new String(b, off, len, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        Boolean again = check(replaced, 0, replaced.length);
        return again != null && again;
    }

    /** @return the answer, or null when the bytes are not valid UTF-8 (outside a character cut at their end) */
    private static Boolean check(byte[] b, int off, int len) {
        try (JsonParser p = JSON.createNonBlockingByteArrayParser()) {
            ((ByteArrayFeeder) p.getNonBlockingInputFeeder()).feedInput(b, off, off + len);
            int depth = 0;
            boolean started = false;
            while (true) {
                JsonToken t = p.nextToken();
                if (t == JsonToken.NOT_AVAILABLE) {
                    // more input is wanted: a proper prefix once a value has begun (a token or part of one)
                    return started || depth > 0 || hasNonSpace(b, off, len);
                }
                if (t == null) {
                    return false;
                }
                started = true;
                if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                }
                if (depth == 0 && t != JsonToken.FIELD_NAME) {
                    return false; // a whole root value: more bytes cannot make the payload one value
                }
            }
        } catch (IOException | RuntimeException ex) {
            return hasNonAscii(b, off, len) ? null : Boolean.FALSE;
        }
    }

    private static boolean hasNonSpace(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return true;
            }
        }
        return false;
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

package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The first bytes of a response body that is not an event stream, and the failure recorded for
 * it with the server's own message in it:
 * <ul>
 * <li>a non-2xx status: {@code HTTPError} {@code HTTP Error <code>: <reason>} (the reference's
 * text), followed by {@code ": "} and the server's message when the body has one, e.g.
 * {@code HTTP Error 500: Internal Server Error: CUDA out of memory};</li>
 * <li>a 2xx whose Content-Type is JSON ({@link #isJson}), i.e. the server ignored
 * {@code "stream": true} or answered with an error object: {@code ValueError}
 * {@code endpoint did not stream (Content-Type: <type>): <message>} (for a completion object,
 * that it answered a non-streaming completion).</li>
 * </ul>
 * The server's message is, from a JSON object body: {@code error.message} (or {@code error}
 * when it is a string), else top-level {@code message}, else {@code detail} (non-string values as
 * compact JSON); otherwise the body text, trimmed. The body is decoded as UTF-8 with replacement
 * characters. At most {@value #MAX_BYTES} bytes are kept, so a huge body cannot exhaust memory
 * (a body cut there is usually not JSON any more and is reported as text); the whole message is
 * cut at {@value ErrorTypes#MAX_MESSAGE} characters with the truncation flag by
 * {@link RequestError#of}. Not thread-safe: one instance per response.
 */
public final class NonStreamBody {
    /** Most body bytes kept. */
    public static final int MAX_BYTES = 64 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String type;
    private final String prefix;
    private final String separator;
    private final String ifEmpty;
    private final boolean notStreamed;
    private byte[] buf;
    private int len;
    private long bytes;

    private NonStreamBody(String type, String prefix, String separator, String ifEmpty, boolean notStreamed) {
        this.type = type;
        this.prefix = prefix;
        this.separator = separator;
        this.ifEmpty = ifEmpty;
        this.notStreamed = notStreamed;
    }

    /**
     * The body of a non-2xx response.
     *
     * @param status the HTTP status code
     * @param reason the reason phrase, or null / empty when the server sent none
     * @return an empty body
     */
    public static NonStreamBody httpError(int status, String reason) {
        String r = reason == null ? "" : reason;
        String prefix = "HTTP Error " + status + ": " + r;
        return new NonStreamBody(ErrorTypes.HTTP_ERROR, prefix, r.isEmpty() ? "" : ": ", prefix, false);
    }

    /**
     * The body of a 2xx response that is JSON instead of an event stream.
     *
     * @param contentType the Content-Type header as received (not null)
     * @return an empty body
     */
    public static NonStreamBody notStreamed(String contentType) {
        String prefix = "endpoint did not stream (Content-Type: " + contentType + ")";
        return new NonStreamBody(ErrorTypes.VALUE_ERROR, prefix, ": ", prefix + ": empty body", true);
    }

    /**
     * Whether a 2xx with this Content-Type is a JSON document rather than a stream:
     * {@code application/json} or a {@code +json} type, parameters and case aside. Event streams,
     * {@code text/plain} (which some mock servers use for SSE) and a missing header are not.
     *
     * @param contentType the header value, or null when absent
     * @return whether it is JSON
     */
    public static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String media = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
        return media.equals("application/json") || media.endsWith("+json");
    }

    /**
     * Adds the next slice of the body; only the first {@value #MAX_BYTES} bytes are kept.
     *
     * @param b the bytes as received (not kept)
     * @return false once {@value #MAX_BYTES} bytes are kept (no need to read more)
     */
    public boolean append(Buffer b) {
        int n = b.length();
        return append(b.getBytes(), 0, n);
    }

    /**
     * Adds the next slice of the body; only the first {@value #MAX_BYTES} bytes are kept.
     *
     * @param b   the bytes as received (not kept)
     * @param off offset in {@code b}
     * @param n   length
     * @return false once {@value #MAX_BYTES} bytes are kept (no need to read more)
     */
    public boolean append(byte[] b, int off, int n) {
        bytes += n;
        int take = Math.min(n, MAX_BYTES - len);
        if (take > 0) {
            if (buf == null || len + take > buf.length) {
                int size = Math.min(MAX_BYTES, Math.max(len + take, buf == null ? 1024 : buf.length * 2));
                buf = buf == null ? new byte[size] : Arrays.copyOf(buf, size);
            }
            System.arraycopy(b, off, buf, len, take);
            len += take;
        }
        return len < MAX_BYTES;
    }

    /** @return body bytes received so far (including those beyond the kept prefix) */
    public long bytes() {
        return bytes;
    }

    /** @return the failure for this response, with what was read of the body so far */
    public RequestError error() {
        String m = serverMessage(buf == null ? "" : new String(buf, 0, len, StandardCharsets.UTF_8), notStreamed);
        return RequestError.of(type, m.isEmpty() ? ifEmpty : prefix + separator + m);
    }

    /**
     * The server's message in a body.
     *
     * @param body        the body text (not null)
     * @param notStreamed whether a completion object is to be described (a 2xx)
     * @return the message, or "" for an empty body
     */
    static String serverMessage(String body, boolean notStreamed) {
        String raw = body.strip();
        if (raw.isEmpty()) {
            return raw;
        }
        JsonNode root;
        try {
            root = JSON.readTree(raw);
        } catch (IOException | RuntimeException ex) {
            return raw;
        }
        if (root == null || !root.isObject()) {
            return raw;
        }
        JsonNode error = root.get("error");
        String m = error == null ? null : error.isObject() ? text(error.get("message")) : error.isTextual() ? text(error) : null;
        if (m != null) {
            return m;
        }
        if (notStreamed) {
            JsonNode object = root.get("object");
            String obj = object != null && object.isTextual() ? object.asText() : null;
            if (root.path("choices").isArray() || (obj != null && (obj.startsWith("chat.completion") || obj.equals("text_completion")))) {
                return "it answered a non-streaming completion (" + (obj != null ? "object \"" + obj + "\"; " : "")
                        + "was \"stream\": true ignored?)";
            }
        }
        m = text(root.get("message"));
        if (m == null) {
            m = text(root.get("detail"));
        }
        return m != null ? m : raw;
    }

    private static String text(JsonNode n) {
        if (n == null || n.isNull() || (n.isContainerNode() && n.isEmpty())) {
            return null;
        }
        String s = n.isTextual() ? n.asText().strip() : n.toString();
        return s.isEmpty() ? null : s;
    }
}

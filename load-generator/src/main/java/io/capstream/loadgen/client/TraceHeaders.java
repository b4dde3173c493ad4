package io.capstream.loadgen.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The correlation headers capstream sends with every request (issue 33) so that a request can be found in the
 * server's logs and traces: a W3C Trace Context {@code traceparent} (version {@code 00}, a random 16-byte trace id
 * and 8-byte parent id per request, flags {@code 01}: sampled) and an {@code X-Request-Id} of
 * {@code <run id>-<request index>} (e.g. {@code benchmark-20261205T141500Z-17}: readable, unique across runs
 * as run ids are, and joinable with the report's {@code request_index}). {@code --no-trace-headers} turns both off. Stateless; thread-safe when the
 * {@link Random} given is (e.g. {@link java.util.concurrent.ThreadLocalRandom#current()}).
 */
public final class TraceHeaders {
    /** The W3C Trace Context header. */
    public static final String TRACEPARENT = "traceparent";
    /** The request id header (read by vLLM, SGLang, most gateways). */
    public static final String REQUEST_ID = "X-Request-Id";
    /** The names sent, in order (RunStarted.trace_headers). */
    public static final List<String> NAMES = List.of(TRACEPARENT, REQUEST_ID);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceHeaders() {
    }

    /**
     * The ids of one request.
     *
     * @param requestId the X-Request-Id value, or null when not sent
     * @param traceId   32 lower-case hex digits, not all zero; null when no traceparent is sent
     * @param parentId  16 lower-case hex digits, not all zero; null when no traceparent is sent
     */
    public record Ids(String requestId, String traceId, String parentId) {
        /** @return the {@code traceparent} value {@code 00-<trace id>-<parent id>-01}, or null when not sent */
        public String traceparent() {
            return traceId == null ? null : "00-" + traceId + "-" + parentId + "-01";
        }

        /**
         * @param only the header names to keep ({@link #sentNames}); not null
         * @return a copy with the ids whose header is not in {@code only} dropped (null)
         */
        public Ids keep(List<String> only) {
            boolean tp = only.contains(TRACEPARENT);
            return new Ids(only.contains(REQUEST_ID) ? requestId : null, tp ? traceId : null, tp ? parentId : null);
        }

        /** @return the headers to send: traceparent, then X-Request-Id, each when not null (a new mutable map) */
        public Map<String, String> headers() {
            Map<String, String> h = new LinkedHashMap<>();
            if (traceId != null) {
                h.put(TRACEPARENT, traceparent());
            }
            if (requestId != null) {
                h.put(REQUEST_ID, requestId);
            }
            return h;
        }
    }

    /**
     * The names capstream sends: {@link #NAMES} unless off; a {@code -H} header of the same name (any case) is the
     * user's own and replaces capstream's.
     *
     * @param on          whether trace headers are on (not {@code --no-trace-headers})
     * @param userHeaders the names of the {@code -H} headers; not null
     * @return the names sent, in order; empty when off
     */
    public static List<String> sentNames(boolean on, List<String> userHeaders) {
        if (!on) {
            return List.of();
        }
        return NAMES.stream().filter(n -> userHeaders.stream().noneMatch(n::equalsIgnoreCase)).toList();
    }

    /**
     * @param runId  the run id; not null
     * @param index  the request's index in the run (&gt;= 0)
     * @param random the source of the trace and parent ids; not null
     * @return new ids for the request
     */
    public static Ids next(String runId, int index, Random random) {
        return new Ids(runId + "-" + index, hex(random, 16), hex(random, 8));
    }

    /** @return {@code bytes} random bytes as lower-case hex, never all zero (invalid in W3C Trace Context) */
    static String hex(Random random, int bytes) {
        byte[] b = new byte[bytes];
        do {
            random.nextBytes(b);
        } while (allZero(b));
        char[] c = new char[bytes * 2];
        for (int i = 0; i < bytes; i++) {
            c[2 * i] = HEX[(b[i] >> 4) & 0xF];
            c[2 * i + 1] = HEX[b[i] & 0xF];
        }
        return new String(c);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}

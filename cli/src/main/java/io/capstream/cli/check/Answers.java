package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

import com.fasterxml.jackson.databind.JsonNode;

/** One-line descriptions of an {@link ProbeExchange}'s outcome and error message, for the findings' details. */
final class Answers {
    /** Longest message quoted, characters. */
    static final int MAX_MESSAGE = 160;

    private Answers() {
    }

    /** Start of the failure of an exchange that got no complete answer within its time ({@link #timedOut(long)}). */
    static final String TIMED_OUT = "timed out after ";

    /**
     * @param boundMs the exchange's time bound, ms
     * @return e.g. {@code timed out after 20 s (the check's bound per exchange: --exchange-timeout raises it, --timeout
     *     bounds the whole check)}
     */
    static String timedOut(long boundMs) {
        return TIMED_OUT + (boundMs % 1000 == 0 ? Long.toString(boundMs / 1000) : String.format(java.util.Locale.ROOT,
                "%.1f", boundMs / 1000.0)) + " s (the check's bound per exchange: --exchange-timeout raises it,"
                + " --timeout bounds the whole check)";
    }

    /** @return whether the exchange got no complete answer within its time bound */
    static boolean timedOut(ProbeExchange e) {
        return e.status() == 0 && e.failure() != null && e.failure().startsWith(TIMED_OUT);
    }

    /**
     * @return whether the exchange is a 2xx stream whose connection closed (or was reset) before {@code [DONE]}, within
     *         its time bound: {@code run} counts such a request as failed ({@code IncompleteRead}). A JSON-typed body is
     *         not a stream ({@link io.capstream.loadgen.client.NonStreamBody#isJson}), cut or not.
     */
    static boolean cutOff(ProbeExchange e) {
        return e.ok() && e.failure() != null && !io.capstream.loadgen.client.NonStreamBody.isJson(e.contentType())
                && e.items().stream().noneMatch(i -> i.kind() == io.capstream.loadgen.client.SseItem.Kind.DONE);
    }

    /**
     * @param e a {@link #cutOff} exchange
     * @return e.g. {@code after 2 data chunks, no [DONE]}
     */
    static String cutOffText(ProbeExchange e) {
        return "after " + e.chunks().size() + " data chunks, no [DONE]";
    }

    /** @return e.g. {@code HTTP 400: <message>}, {@code no answer: <why>}, {@code timed out after 20 s (...)} */
    static String outcome(ProbeExchange e) {
        if (timedOut(e)) {
            return "no complete answer: " + e.failure();
        }
        if (e.status() == 0) {
            return "no answer: " + e.failure();
        }
        String m = message(e);
        return "HTTP " + e.status() + (m == null ? "" : ": " + m);
    }

    /**
     * @return the error message of an error body ({@code error.message}, {@code message}, {@code detail}), else the
     *         body's text, cut to {@value #MAX_MESSAGE} characters; null when the body is empty
     */
    static String message(ProbeExchange e) {
        JsonNode b = e.bodyJson();
        String m = null;
        if (b != null) {
            JsonNode err = b.path("error");
            m = err.isObject() ? err.path("message").asText(null) : err.isTextual() ? err.asText() : null;
            if (m == null) {
                m = b.path("message").isTextual() ? b.path("message").asText()
                        : b.path("detail").isTextual() ? b.path("detail").asText() : null;
            }
        }
        if (m == null && e.body().length > 0) {
            m = e.bodyText();
        }
        return m == null ? null : cut(m);
    }

    /** @return the text on one line, cut to {@value #MAX_MESSAGE} characters */
    static String cut(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() > MAX_MESSAGE ? one.substring(0, MAX_MESSAGE) + "..." : one;
    }
}

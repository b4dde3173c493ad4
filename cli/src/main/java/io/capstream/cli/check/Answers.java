package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

import com.fasterxml.jackson.databind.JsonNode;

/** One-line descriptions of an {@link ProbeExchange}'s outcome and error message, for the findings' details. */
final class Answers {
    /** Longest message quoted, characters. */
    static final int MAX_MESSAGE = 160;

    private Answers() {
    }

    /** @return e.g. {@code HTTP 400: <message>}, {@code no answer: <why>} */
    static String outcome(ProbeExchange e) {
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

package io.capstream.loadgen.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One thing a streamed answer carried, in arrival order: an SSE comment line, a data payload that parsed as JSON, a
 * data payload that did not, another SSE field ({@code event:}, {@code id:}, {@code retry:}), or {@code [DONE]}.
 *
 * @param kind what it is; not null
 * @param json the payload of a {@link Kind#DATA} item, else null
 * @param text the line of a {@link Kind#COMMENT}, {@link Kind#FIELD} or {@link Kind#INVALID} item (at most
 *             {@value #MAX_TEXT} characters), else null
 */
public record SseItem(Kind kind, JsonNode json, String text) {
    /** Longest text kept per item, characters. */
    public static final int MAX_TEXT = 200;

    /** Kinds of items. */
    public enum Kind {
        /** A line starting with {@code :} (a keep-alive). */
        COMMENT,
        /** A {@code data:} payload that is JSON (possibly joined from several lines). */
        DATA,
        /** A {@code data:} payload that is not JSON. */
        INVALID,
        /** An {@code event:}, {@code id:} or {@code retry:} line. */
        FIELD,
        /** {@code data: [DONE]}. */
        DONE
    }

    /** @param json a parsed payload @return a data item */
    public static SseItem data(JsonNode json) {
        return new SseItem(Kind.DATA, json, null);
    }

    /** @param kind the kind @param text its line @return an item with the line cut to {@value #MAX_TEXT} characters */
    public static SseItem line(Kind kind, String text) {
        return new SseItem(kind, null, text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text);
    }
}

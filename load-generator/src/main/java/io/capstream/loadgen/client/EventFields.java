package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Value readers shared by the streamed-payload decoders ({@link ChunkDecoder}, {@link ToolCallDeltaReader},
 * {@link ResponsesEventDecoder}, {@link MessagesEventDecoder}): each takes the parser on the current value's token
 * {@code v} and leaves it on that value's last token (a container that is not read is skipped). Stateless; every
 * method throws {@link IOException} only when the JSON is invalid.
 */
final class EventFields {
    private EventFields() {
    }

    /** @return the value as text when it is a scalar other than null, else null (a container is skipped) */
    static String scalar(JsonParser p, JsonToken v) throws IOException {
        if (v != null && v.isScalarValue() && v != JsonToken.VALUE_NULL) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    /** @return the value when it is a string, else null (a container is skipped) */
    static String string(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    /** @return the value when it is an integer &ge; 0 that fits a long, else -1 (a container is skipped) */
    static long nonNegativeInt(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            long n = p.getLongValue();
            return n >= 0 ? n : -1;
        }
        p.skipChildren();
        return -1;
    }

    /** @return whether the string is not null and not empty */
    static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    /**
     * Reads one integer member of an object value, e.g. {@code cached_tokens} of {@code input_tokens_details}.
     *
     * @param p      the parser, on {@code v}
     * @param v      the value's token; a value that is no object is skipped
     * @param member the member's name; other members are skipped
     * @param absent returned when the value has no such member
     * @return as {@link #nonNegativeInt} for the member's value (the last one, if repeated), else {@code absent}
     */
    static long intMember(JsonParser p, JsonToken v, String member, long absent) throws IOException {
        long n = absent;
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return n;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            if (member.equals(name)) {
                n = nonNegativeInt(p, x);
            } else {
                p.skipChildren();
            }
        }
        return n;
    }

    /**
     * Reads one string member of an object value, e.g. {@code reason} of {@code incomplete_details}.
     *
     * @param p      the parser, on {@code v}
     * @param v      the value's token; a value that is no object is skipped
     * @param member the member's name; other members are skipped
     * @param absent returned when the value has no such member
     * @return as {@link #string} for the member's value (the last one, if repeated), else {@code absent}
     */
    static String stringMember(JsonParser p, JsonToken v, String member, String absent) throws IOException {
        String s = absent;
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return s;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            if (member.equals(name)) {
                s = string(p, x);
            } else {
                p.skipChildren();
            }
        }
        return s;
    }

    /**
     * Reads a payload's top-level {@code error} member as the typed-event APIs send it.
     *
     * @param p the parser, on {@code v}
     * @param v the member's value token
     * @return the error: an object with at least one member, or a non-empty scalar as the message; null for anything
     *         else (an empty object, null, an empty string, an array)
     */
    static ErrorFields errorMember(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.START_OBJECT) {
            ErrorFields e = ErrorFields.read(p);
            return e.any ? e : null;
        }
        String s = scalar(p, v);
        return nonEmpty(s) ? ErrorFields.of(s, null, null) : null;
    }

    /** An error object's members: {@code message}, {@code type}, {@code code} (scalars as text; each nullable). */
    static final class ErrorFields {
        String message;
        String type;
        String code;
        boolean any;

        /** @return an error with these members (each nullable) */
        static ErrorFields of(String message, String type, String code) {
            ErrorFields e = new ErrorFields();
            e.message = message;
            e.type = type;
            e.code = code;
            return e;
        }

        /** Reads an object's members (the parser is on its {@code START_OBJECT}). */
        static ErrorFields read(JsonParser p) throws IOException {
            ErrorFields e = new ErrorFields();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                e.any = true;
                String name = p.currentName();
                JsonToken x = p.nextToken();
                switch (name) {
                    case "message" -> e.message = scalar(p, x);
                    case "type" -> e.type = scalar(p, x);
                    case "code" -> e.code = scalar(p, x);
                    default -> p.skipChildren();
                }
            }
            return e;
        }

        /**
         * The error of an {@code error} event: its error object (or an empty one) with the payload's top-level
         * message and code filling the members the object left out.
         *
         * @param error   the payload's error member, nullable
         * @param message the payload's top-level {@code message}, nullable
         * @param code    the payload's top-level {@code code}, nullable
         * @return the error to record; never null
         */
        static ErrorFields ofEvent(ErrorFields error, String message, String code) {
            ErrorFields e = error != null ? error : new ErrorFields();
            if (e.message == null) {
                e.message = message;
            }
            if (e.code == null) {
                e.code = code;
            }
            return e;
        }

        /** Records the error on the chunk as an error object with these members. */
        void applyTo(DecodedChunk out) {
            out.error(JsonToken.START_OBJECT, message, type, code);
        }
    }
}

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
 * The parsing shared by the {@link EventDecoder}s of typed-event APIs: a streaming parser over the payload (like
 * {@link ChunkDecoder}: {@code NaN} accepted, trailing data makes the payload unparseable, bytes that are not valid
 * UTF-8 are decoded with replacement characters and parsed again), the payload's object read by {@link #read}
 * and, when whole, applied by {@link #apply}. A payload that is not a JSON object is skipped ({@link Parse#INVALID}).
 * Not thread-safe: one instance per request.
 */
abstract class TypedEventDecoder implements EventDecoder {
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    /** Set by {@link #event} when the payload is the stream's terminal event. */
    protected boolean ended;

    @Override
    public final Parse decode(byte[] b, int off, int len, DecodedChunk out) {
        try (JsonParser p = JSON.createParser(b, off, len)) {
            return object(p, out);
        } catch (JsonEOFException ex) {
            return Parse.INCOMPLETE;
        } catch (IOException | RuntimeException ex) {
            if (!hasNonAscii(b, off, len)) {
                return Parse.INVALID;
            }
        }
        try (JsonParser p = JSON.createParser(new String(b, off, len, StandardCharsets.UTF_8))) {
            return object(p, out);
        } catch (JsonEOFException ex) {
            return Parse.INCOMPLETE;
        } catch (IOException | RuntimeException ex) {
            return Parse.INVALID;
        }
    }

    @Override
    public final boolean ended() {
        return ended;
    }

    private Parse object(JsonParser p, DecodedChunk out) throws IOException {
        out.reset();
        ended = false;
        JsonToken t = p.nextToken();
        if (t != JsonToken.START_OBJECT) {
            return Parse.INVALID;
        }
        read(p);
        boolean atEnd;
        try {
            atEnd = p.nextToken() == null;
        } catch (JsonEOFException ex) {
            atEnd = false; // a cut token after a whole value is trailing data
        }
        if (!atEnd) {
            return Parse.INVALID;
        }
        apply(out);
        return Parse.PARSED;
    }

    /**
     * Reads the payload's object into the decoder's fields for this event (the parser is on its
     * {@code START_OBJECT}; on return it must be on the matching {@code END_OBJECT}). Has no effect on what earlier
     * events said until {@link #apply}.
     *
     * @param p the parser
     * @throws IOException when the payload is not JSON
     */
    protected abstract void read(JsonParser p) throws IOException;

    /**
     * Applies the event just {@link #read} (the payload was whole: nothing trails it) to the chunk and to what the
     * decoder keeps across events; sets {@link #ended} for a terminal event.
     *
     * @param out the chunk to fill (already reset)
     */
    protected abstract void apply(DecodedChunk out);

    /** @return the value as text when it is a scalar other than null, else null (a container is skipped) */
    protected static String scalar(JsonParser p, JsonToken v) throws IOException {
        if (v != null && v.isScalarValue() && v != JsonToken.VALUE_NULL) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    /** @return the value when it is a string, else null (a container is skipped) */
    protected static String string(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    /** @return the value when it is an integer &ge; 0 that fits a long, else -1 (a container is skipped) */
    protected static long nonNegativeInt(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            long n = p.getLongValue();
            return n >= 0 ? n : -1;
        }
        p.skipChildren();
        return -1;
    }

    /** @return whether the string is not null and not empty */
    protected static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    /** An error object's members: {@code message}, {@code type}, {@code code} (scalars as text). */
    protected static final class ErrorFields {
        String message;
        String type;
        String code;
        boolean any;

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

        /** Records the error on the chunk as an error object with these members. */
        void applyTo(DecodedChunk out) {
            out.error(JsonToken.START_OBJECT, message, type, code);
        }
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

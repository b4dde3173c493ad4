package io.capstream.loadgen.client;

import static io.capstream.loadgen.client.EventFields.errorMember;
import static io.capstream.loadgen.client.EventFields.scalar;
import static io.capstream.loadgen.client.EventFields.string;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.capstream.loadgen.client.EventFields.ErrorFields;
import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The parsing shared by the {@link EventDecoder}s of typed-event APIs: a streaming parser over the payload (like
 * {@link ChunkDecoder}: {@code NaN} accepted, trailing data makes the payload unparseable, bytes that are not valid
 * UTF-8 are decoded with replacement characters and parsed again), the payload's object read by {@link #read}
 * (the top-level {@code type}, {@code message}, {@code code} and {@code error} by {@link #topLevel}) and, when
 * whole, applied by {@link #apply}. A payload that is not a JSON object is skipped ({@link Parse#INVALID}).
 * The value readers are {@link EventFields}'. Not thread-safe: one instance per request.
 */
abstract class TypedEventDecoder implements EventDecoder {
    private static final JsonFactory JSON = Utf8JsonFactory.INSTANCE;

    /** Set by {@link #apply} when the payload is the stream's terminal event. */
    protected boolean ended;

    // the current payload's top-level members that both APIs send (reset before each payload is read)
    /** The payload's {@code type} string, or null. */
    protected String type;
    /** The payload's {@code error} member (see {@link EventFields#errorMember}), or null. */
    protected ErrorFields error;
    /** The payload's top-level {@code message} scalar, or null. */
    protected String topMessage;
    /** The payload's top-level {@code code} scalar, or null. */
    protected String topCode;

    @Override
    public final Parse decode(byte[] b, int off, int len, DecodedChunk out) {
        ReusableUtf8Parser reused = ReusableUtf8Parser.acquire(b, off, len); // the thread's parser, reset (issue 33)
        boolean finished = false;
        try {
            Parse r = object(reused, out);
            finished = true;
            return r;
        } catch (IOException | RuntimeException ex) {
            if (JsonPrefix.isProperPrefix(b, off, len)) {
                return Parse.INCOMPLETE; // the end came inside the value: a later data line may complete it
            }
            if (!hasNonAscii(b, off, len)) {
                return Parse.INVALID;
            }
        } finally {
            reused.release(finished);
        }
        try (JsonParser p = JSON.createParser(new String(b, off, len, StandardCharsets.UTF_8))) {
            return object(p, out);
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
        type = null;
        error = null;
        topMessage = null;
        topCode = null;
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
     * Reads a top-level member both APIs send: {@code type}, {@code message}, {@code code}, {@code error}; skips any
     * other.
     *
     * @param name the member's name
     * @param p    the parser, on the member's value
     * @param v    the value's token
     * @throws IOException when the payload is not JSON
     */
    protected final void topLevel(String name, JsonParser p, JsonToken v) throws IOException {
        switch (name) {
            case "type" -> type = string(p, v);
            case "message" -> topMessage = scalar(p, v);
            case "code" -> topCode = scalar(p, v);
            case "error" -> error = errorMember(p, v);
            default -> p.skipChildren();
        }
    }

    /**
     * Applies the event just {@link #read} (the payload was whole: nothing trails it) to the chunk and to what the
     * decoder keeps across events; sets {@link #ended} for a terminal event.
     *
     * @param out the chunk to fill (already reset)
     */
    protected abstract void apply(DecodedChunk out);

    private static boolean hasNonAscii(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (b[i] < 0) {
                return true;
            }
        }
        return false;
    }
}

package io.capstream.loadgen.client;

import java.io.IOException;

/**
 * The chunked transfer coding of one response body (RFC 9112 §7.1), read from the raw bytes of the socket reads that
 * follow the response head: each chunk's data is handed to a {@link Sink} as a slice of the caller's array (no copy,
 * no object per chunk), chunk extensions and trailer fields are skipped, and the body ends after the last chunk's
 * trailer section. {@link NettyStreamHandler} reads a streamed body with it instead of Netty's HTTP decoder, which
 * builds an {@code HttpContent} (and a retained slice of the read buffer) per chunk and passes each through the
 * pipeline.
 *
 * <p>As lenient as Netty's decoder where servers differ: a bare {@code LF} ends a line as {@code CRLF} does, spaces
 * or tabs may follow the size. A size that is not hexadecimal, a chunk's data not followed by a line end, a size line
 * longer than {@value #MAX_SIZE_LINE} bytes or a trailer section longer than {@value #MAX_TRAILERS} bytes (Netty's
 * defaults for its initial line and headers) is a {@link MalformedChunkException}. Not thread-safe: one instance per
 * response, used on its event loop.
 */
final class ChunkedBody {
    /** Receives the body's data. */
    interface Sink {
        /**
         * @param b   bytes (valid only during the call)
         * @param off offset of the data
         * @param len its length, at least 1
         */
        void data(byte[] b, int off, int len);
    }

    /** The body is not valid chunked coding. */
    static final class MalformedChunkException extends IOException {
        MalformedChunkException(String message) {
            super(message);
        }
    }

    /** Longest chunk-size line (size, extensions, line end), bytes. */
    static final int MAX_SIZE_LINE = 4096;
    /** Longest trailer section (its field lines and line ends), bytes. */
    static final int MAX_TRAILERS = 8192;

    private static final int SIZE = 0; // in the hex digits of a size line (or before the first)
    private static final int SIZE_TAIL = 1; // after the size: spaces, extensions, up to the LF
    private static final int DATA = 2;
    private static final int DATA_CR = 3; // after a chunk's data: its CRLF
    private static final int DATA_LF = 4;
    private static final int TRAILER_START = 5; // at the start of a trailer line (or of the final CRLF)
    private static final int TRAILER_LINE = 6; // inside a trailer field line, up to its LF
    private static final int TRAILER_END_LF = 7; // the final CRLF's LF
    private static final int END = 8;

    private final Sink sink;
    private int state = SIZE;
    private long size;
    private int digits;
    private int lineBytes;
    private int trailerBytes;

    /** @param sink receives each chunk's data */
    ChunkedBody(Sink sink) {
        this.sink = sink;
    }

    /**
     * Reads the next bytes of the body.
     *
     * @param b   bytes
     * @param off offset
     * @param len length
     * @return the number of bytes read; less than {@code len} only when the body ended inside the slice (the rest
     *         is not this body's)
     * @throws MalformedChunkException when the bytes are not chunked coding
     */
    int feed(byte[] b, int off, int len) throws MalformedChunkException {
        int i = off;
        int end = off + len;
        while (i < end && state != END) {
            if (state == DATA) {
                int n = (int) Math.min(size, end - i);
                sink.data(b, i, n);
                i += n;
                size -= n;
                if (size == 0) {
                    state = DATA_CR;
                }
                continue;
            }
            byte c = b[i++];
            switch (state) {
                case SIZE -> sizeByte(c);
                case SIZE_TAIL -> {
                    line();
                    if (c == '\n') {
                        endOfSizeLine();
                    }
                }
                case DATA_CR -> state = c == '\r' ? DATA_LF : c == '\n' ? SIZE : fail("no line end after a chunk's data");
                case DATA_LF -> state = c == '\n' ? SIZE : fail("no line end after a chunk's data");
                case TRAILER_START -> {
                    trailer();
                    state = c == '\r' ? TRAILER_END_LF : c == '\n' ? END : TRAILER_LINE;
                }
                case TRAILER_LINE -> {
                    trailer();
                    if (c == '\n') {
                        state = TRAILER_START;
                    }
                }
                case TRAILER_END_LF -> state = c == '\n' ? END : fail("no line end after the trailer section");
                default -> throw new IllegalStateException("state " + state);
            }
        }
        return i - off;
    }

    private void sizeByte(byte c) throws MalformedChunkException {
        line();
        int d = Character.digit(c, 16);
        if (d >= 0) {
            if (++digits > 15) {
                fail("chunk size too large");
            }
            size = size * 16 + d;
            return;
        }
        if (digits == 0 && (c == ' ' || c == '\t')) {
            return; // spaces before the size
        }
        if (digits == 0) {
            fail("invalid chunk size");
        }
        if (c == '\n') {
            endOfSizeLine();
        } else if (c == ';' || c == ' ' || c == '\t' || c == '\r') {
            state = SIZE_TAIL;
        } else {
            fail("invalid chunk size");
        }
    }

    private void endOfSizeLine() {
        lineBytes = 0;
        digits = 0;
        state = size == 0 ? TRAILER_START : DATA;
    }

    private void line() throws MalformedChunkException {
        if (++lineBytes > MAX_SIZE_LINE) {
            fail("chunk size line longer than " + MAX_SIZE_LINE + " bytes");
        }
    }

    private void trailer() throws MalformedChunkException {
        if (++trailerBytes > MAX_TRAILERS) {
            fail("trailer section longer than " + MAX_TRAILERS + " bytes");
        }
    }

    private static int fail(String message) throws MalformedChunkException {
        throw new MalformedChunkException(message);
    }

    /** @return whether the body's last chunk and trailer section were read */
    boolean ended() {
        return state == END;
    }
}

package io.capstream.loadgen.client;

import java.util.Arrays;

/**
 * Incremental line splitter for a streamed HTTP body: feeds arbitrary byte slices (TCP chunks) and
 * calls the {@link LineHandler} once per complete line, split on {@code \n} only, like the
 * reference's line iteration (spec §4.1). The {@code \n} is not passed; a trailing {@code \r} is
 * (the handler strips whitespace). A line whose bytes span several chunks, including a multi-byte
 * UTF-8 character cut in the middle, is reassembled in a reusable carry buffer before it is
 * handed over; a line contained in one chunk is passed straight from the caller's array (no copy,
 * no allocation). Not thread-safe: one instance per response.
 */
public final class SseLineSplitter {
    /** Receives complete lines. */
    public interface LineHandler {
        /**
         * @param buf bytes (valid only during the call)
         * @param off offset of the line
         * @param len length of the line, without the {@code \n}
         * @return false to stop reading (e.g. {@code [DONE]} or a failure)
         */
        boolean onLine(byte[] buf, int off, int len);

        /**
         * The body ended (after its last line). Called once by {@link #finish()} unless reading
         * was stopped before.
         *
         * @return false to stop (e.g. a failure in an event the end completed)
         */
        default boolean onEnd() {
            return true;
        }
    }

    private final LineHandler handler;
    private byte[] carry = new byte[256];
    private int carryLen;
    private boolean stopped;
    private long bytes;

    /** @param handler receives each line */
    public SseLineSplitter(LineHandler handler) {
        this.handler = handler;
    }

    /**
     * Feeds the next slice of the body.
     *
     * @param buf bytes
     * @param off offset
     * @param len length
     * @return false once the handler asked to stop (later input is ignored)
     */
    public boolean feed(byte[] buf, int off, int len) {
        if (stopped) {
            return false;
        }
        bytes += len;
        int end = off + len;
        int start = off;
        for (int i = off; i < end; i++) {
            if (buf[i] == '\n') {
                boolean go;
                if (carryLen == 0) {
                    go = handler.onLine(buf, start, i - start);
                } else {
                    append(buf, start, i - start);
                    go = handler.onLine(carry, 0, carryLen);
                    carryLen = 0;
                }
                start = i + 1;
                if (!go) {
                    stopped = true;
                    return false;
                }
            }
        }
        if (start < end) {
            append(buf, start, end - start);
        }
        return true;
    }

    /**
     * Signals the end of the body: a last line without {@code \n} is handed over, then
     * {@link LineHandler#onEnd()} is called.
     *
     * @return false when the handler asked to stop
     */
    public boolean finish() {
        if (stopped) {
            return false;
        }
        if (carryLen > 0) {
            int n = carryLen;
            carryLen = 0;
            if (!handler.onLine(carry, 0, n)) {
                stopped = true;
                return false;
            }
        }
        if (!handler.onEnd()) {
            stopped = true;
            return false;
        }
        return true;
    }

    /** @return whether the handler asked to stop */
    public boolean stopped() {
        return stopped;
    }

    /** @return body bytes fed so far */
    public long bytes() {
        return bytes;
    }

    private void append(byte[] b, int off, int len) {
        if (carryLen + len > carry.length) {
            carry = Arrays.copyOf(carry, Math.max(carry.length * 2, carryLen + len));
        }
        System.arraycopy(b, off, carry, carryLen, len);
        carryLen += len;
    }
}

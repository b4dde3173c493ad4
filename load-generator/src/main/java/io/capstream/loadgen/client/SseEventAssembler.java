package io.capstream.loadgen.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns the lines of a streamed body into JSON payloads (spec §4.1), keeping the reference's
 * line-by-line reading where it works and joining the {@code data:} lines of one SSE event where
 * it does not (WHATWG HTML, "event stream interpretation": the data lines of an event make one
 * value, dispatched at the blank line).
 *
 * <p>Per line: whitespace is stripped (including a trailing {@code \r}); an empty line ends the
 * event; lines not starting with {@code data:} are ignored ({@code event:}, {@code id:},
 * {@code :} comments); {@code data: [DONE]} stops reading at once. A data line whose payload
 * parses on its own is applied at once, stamped with the arrival time of the bytes that completed
 * it, without a copy (the normal case: one line per event, with or without blank lines between
 * events). A payload that is not JSON at all is skipped silently, like {@code json.loads} failing.
 * Only a payload that is a proper prefix of a JSON value ({@link Parse#INCOMPLETE}, decided by the
 * parser's state: {@link JsonPrefix}) starts a multi-line event: it and the following data lines of
 * the event are copied and joined, and the joined text is parsed when the event ends (blank line,
 * end of the body, or {@code [DONE]}) and stamped with the arrival of the bytes that ended it.
 * The lines are joined without a separator, each as WHATWG reads its value (after {@code data:}
 * and one optional space, up to its line terminator, other spaces kept), so that a value cut at any
 * byte (inside a string, an escape, a number, a literal, a multi-byte character) is rebuilt exactly;
 * for a value whose lines were cut at its own line breaks (the WHATWG way of sending a multi-line
 * value) this gives the same JSON value as joining with {@code \n}, since a line break in valid
 * JSON is only ever whitespace between tokens that need no separator. When the joined text does
 * not parse either, the event is given up: its first line is skipped (it did not parse on its own)
 * and the others are handled one by one, each stamped with its own arrival time, as line-by-line
 * reading would have done (so a stream without blank lines in which one line is cut short loses
 * only that line). An event longer than {@value #MAX_EVENT_BYTES} bytes or {@value #MAX_EVENT_LINES}
 * lines is given up the same way.
 *
 * <p>Framing only: every {@code data:} line is reported to {@link PayloadHandler#dataLine(long)} as
 * it arrives (for the count and gaps), and what a payload means is the handler's business. No
 * allocation or copy for a one-line event. Not thread-safe: one instance per response, used on its
 * event loop.
 */
public final class SseEventAssembler implements SseLineSplitter.LineHandler {
    /** How a payload parsed. */
    public enum Parse {
        /** A whole JSON value (possibly with the wrong shape): it can be applied. */
        PARSED,
        /** A proper prefix of a JSON value: following data lines of the event may complete it. */
        INCOMPLETE,
        /** Neither (not JSON, trailing data, empty): skipped. */
        INVALID
    }

    /** Interprets payloads; called on the assembler's thread. */
    public interface PayloadHandler {
        /**
         * A {@code data:} line arrived (also {@code [DONE]} and unparseable ones), before its payload is
         * handled.
         *
         * @param atNs {@code System.nanoTime()} when its bytes arrived
         */
        void dataLine(long atNs);

        /**
         * Parses a payload, with no effect until {@link #apply(long)}.
         *
         * @param buf bytes (valid only during the call)
         * @param off offset of the payload
         * @param len length of the payload (stripped of surrounding whitespace)
         * @return how it parsed
         */
        Parse parse(byte[] buf, int off, int len);

        /**
         * Applies the payload that was parsed last (it was {@link Parse#PARSED}).
         *
         * @param atNs {@code System.nanoTime()} when the bytes that completed it arrived
         * @return false to stop reading (a failure)
         */
        boolean apply(long atNs);
    }

    /** Longest multi-line event joined, bytes of joined payload; a longer one is given up. */
    public static final int MAX_EVENT_BYTES = 64 * 1024;
    /** Most data lines joined into one event; a longer one is given up. */
    public static final int MAX_EVENT_LINES = 1024;

    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final PayloadHandler handler;
    private long now;
    private boolean done;

    // the multi-line event being assembled: payloads joined, where each line starts and
    // when it arrived; allocated on the first such event only
    private int eventLines;
    private int eventLen;
    private byte[] event;
    private int[] starts;
    private long[] times;

    /** @param handler interprets the payloads (not null) */
    public SseEventAssembler(PayloadHandler handler) {
        this.handler = handler;
    }

    /**
     * Sets the arrival time of the bytes about to be fed.
     *
     * @param nowNs {@code System.nanoTime()} when the chunk arrived
     */
    public void at(long nowNs) {
        this.now = nowNs;
    }

    /** Frames one line (see the class comment); {@inheritDoc} */
    @Override
    public boolean onLine(byte[] b, int off, int len) {
        int s = off;
        int e = off + len;
        int rawEnd = e > s && b[e - 1] == '\r' ? e - 1 : e; // the line without its terminator, spaces kept
        while (s < e && isSpace(b[s])) {
            s++;
        }
        while (e > s && isSpace(b[e - 1])) {
            e--;
        }
        if (s == e) {
            return eventLines == 0 || dispatch();
        }
        if (e - s < DATA.length || !startsWith(b, s, DATA)) {
            return true;
        }
        s += DATA.length;
        int raw = s < rawEnd && b[s] == ' ' ? s + 1 : s; // WHATWG: the value after one optional space
        while (s < e && isSpace(b[s])) {
            s++;
        }
        handler.dataLine(now);
        if (e - s == DONE.length && startsWith(b, s, DONE)) {
            if (eventLines > 0 && !dispatch()) {
                return false;
            }
            done = true;
            return false;
        }
        if (eventLines > 0) {
            if (eventLen + (rawEnd - raw) <= MAX_EVENT_BYTES && eventLines < MAX_EVENT_LINES) {
                add(b, raw, rawEnd - raw);
                return true;
            }
            if (!giveUp()) {
                return false;
            }
        }
        Parse r = handler.parse(b, s, e - s);
        if (r == Parse.PARSED) {
            return handler.apply(now);
        }
        if (r == Parse.INCOMPLETE && rawEnd - s <= MAX_EVENT_BYTES) {
            add(b, s, rawEnd - s); // trailing spaces kept: the line may end inside a string
        }
        return true; // unparseable: skipped silently (spec §4.1), or the start of a multi-line event
    }

    /** Ends a multi-line event that the end of the body left open. */
    @Override
    public boolean onEnd() {
        return eventLines == 0 || dispatch();
    }

    private boolean dispatch() {
        if (eventLines > 1 && handler.parse(event, 0, eventLen) == Parse.PARSED) {
            eventLines = 0;
            eventLen = 0;
            return handler.apply(now);
        }
        return giveUp();
    }

    /** The event is not JSON as a whole: skip its first line, handle the others one by one. */
    private boolean giveUp() {
        int n = eventLines;
        eventLines = 0;
        boolean go = true;
        for (int i = 1; i < n && go; i++) {
            int from = starts[i];
            int to = i + 1 < n ? starts[i + 1] : eventLen;
            while (from < to && isSpace(event[from])) {
                from++;
            }
            while (to > from && isSpace(event[to - 1])) {
                to--;
            }
            go = handler.parse(event, from, to - from) != Parse.PARSED || handler.apply(times[i]);
        }
        eventLen = 0;
        return go;
    }

    private void add(byte[] b, int off, int len) {
        if (event == null) {
            event = new byte[Math.max(512, len * 2)];
            starts = new int[8];
            times = new long[8];
        }
        int at = eventLines == 0 ? 0 : eventLen;
        if (at + len > event.length) {
            event = Arrays.copyOf(event, Math.max(event.length * 2, at + len));
        }
        if (eventLines == starts.length) {
            starts = Arrays.copyOf(starts, eventLines * 2);
            times = Arrays.copyOf(times, eventLines * 2);
        }
        System.arraycopy(b, off, event, at, len);
        starts[eventLines] = at;
        times[eventLines] = now;
        eventLines++;
        eventLen = at + len;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
    }

    private static boolean startsWith(byte[] b, int off, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (b[off + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** @return whether {@code data: [DONE]} was seen */
    public boolean done() {
        return done;
    }

    /** @return whether a multi-line event is being assembled (its lines are not applied yet) */
    public boolean pending() {
        return eventLines > 0;
    }
}

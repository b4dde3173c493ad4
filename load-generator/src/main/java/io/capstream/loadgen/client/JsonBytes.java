package io.capstream.loadgen.client;

/**
 * The JSON grammar of {@link ChatChunkReader}, over bytes (RFC 8259): whitespace, member names, the separators between
 * members and elements, and values checked without being read ({@link #skip}). Each method takes a position and returns
 * the position after what it read, or {@link #NO} when the bytes are not of the grammar it accepts, which is a subset
 * of what Jackson accepts with the decoders' features: no comments, no {@code NaN}/{@code Infinity}, numbers of at most
 * {@value #MAX_NUMBER} characters, containers nested at most {@value #MAX_DEPTH} deep, strings as {@link JsonStrings}
 * checks them, names without escapes. A method given {@link #NO} returns {@link #NO}. Stateless.
 */
final class JsonBytes {
    /** "Not mine": the position every method returns when it gives up, and passes on when given it. */
    static final int NO = -1;
    /** Deepest nesting of a skipped value (Jackson's own limit is far deeper). */
    static final int MAX_DEPTH = 32;
    /** Longest number, characters (Jackson's own limit is 1,000). */
    static final int MAX_NUMBER = 64;

    private JsonBytes() {
    }

    /**
     * A member's name, a string without escapes; {@code p} is on its opening quote.
     *
     * @return the position of its closing quote, or {@link #NO}
     */
    static int name(byte[] b, int p, int end) {
        if (p >= end || b[p] != '"') {
            return NO;
        }
        for (int i = p + 1; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                return NO; // an escaped name may spell a known one: Jackson's
            }
            if (c < 0x20) {
                if (c >= 0) {
                    return NO;
                }
                int n = JsonStrings.utf8Length(b, i, end);
                if (n < 0) {
                    return NO;
                }
                i += n - 1;
            }
        }
        return NO;
    }

    /** @return the position of the value after the name's closing quote ({@code ':'} and whitespace), or {@link #NO} */
    static int valueStart(byte[] b, int p, int end) {
        p = ws(b, p, end);
        if (p >= end || b[p] != ':') {
            return NO;
        }
        p = ws(b, p + 1, end);
        return p < end ? p : NO;
    }

    /**
     * After a member or element: whitespace, then {@code ','} and whitespace (another follows) or the container's
     * closing byte.
     *
     * @return the position of the next member or element; {@code ~(position after the closing byte)} (below
     *         {@link #NO}) when the container ends; {@link #NO} for anything else (also when {@code p} is {@link #NO})
     */
    static int next(byte[] b, int p, int end, char close) {
        if (p < 0) {
            return NO;
        }
        p = ws(b, p, end);
        if (p >= end) {
            return NO;
        }
        if (b[p] == ',') {
            p = ws(b, p + 1, end);
            return p < end ? p : NO;
        }
        return b[p] == close ? ~(p + 1) : NO;
    }

    /** @return the position of the string's closing quote ({@code p} is after its opening one), or {@link #NO} */
    static int string(byte[] b, int p, int end) {
        return JsonStrings.end(b, p, end);
    }

    /**
     * Checks one JSON value without reading it; {@code p} is on its first byte.
     *
     * @return the position after it, or {@link #NO} when it is not a value of the recognised grammar
     */
    static int skip(byte[] b, int p, int end, int depth) {
        if (p < 0 || p >= end) {
            return NO;
        }
        byte c = b[p];
        switch (c) {
            case '"':
                int se = string(b, p + 1, end);
                return se < 0 ? NO : se + 1;
            case '{':
                return depth >= MAX_DEPTH ? NO : skipObject(b, p + 1, end, depth + 1);
            case '[':
                return depth >= MAX_DEPTH ? NO : skipArray(b, p + 1, end, depth + 1);
            case 't':
                return literal(b, p, end, TRUE);
            case 'f':
                return literal(b, p, end, FALSE);
            case 'n':
                return literal(b, p, end, NULL);
            default:
                return c == '-' || (c >= '0' && c <= '9') ? number(b, p, end) : NO;
        }
    }

    private static final byte[] TRUE = bytes("true");
    private static final byte[] FALSE = bytes("false");
    private static final byte[] NULL = bytes("null");

    private static int skipObject(byte[] b, int p, int end, int depth) {
        p = ws(b, p, end);
        if (p < end && b[p] == '}') {
            return p + 1;
        }
        while (true) {
            int ne = name(b, p, end);
            if (ne < 0) {
                return NO;
            }
            p = valueStart(b, ne + 1, end);
            p = next(b, skip(b, p, end, depth), end, '}');
            if (p < NO) {
                return ~p;
            }
            if (p == NO) {
                return NO;
            }
        }
    }

    private static int skipArray(byte[] b, int p, int end, int depth) {
        p = ws(b, p, end);
        if (p < end && b[p] == ']') {
            return p + 1;
        }
        while (true) {
            p = next(b, skip(b, p, end, depth), end, ']');
            if (p < NO) {
                return ~p;
            }
            if (p == NO) {
                return NO;
            }
        }
    }

    /** @return the position after the literal, which must be followed by a separator, or {@link #NO} */
    private static int literal(byte[] b, int p, int end, byte[] word) {
        int e = p + word.length;
        if (e > end) {
            return NO;
        }
        for (int i = 0; i < word.length; i++) {
            if (b[p + i] != word[i]) {
                return NO;
            }
        }
        return separatorAt(b, e, end) ? e : NO;
    }

    /**
     * A number of the JSON grammar ({@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}) of at most
     * {@value #MAX_NUMBER} characters, followed by a separator.
     *
     * @return the position after it, or {@link #NO}
     */
    private static int number(byte[] b, int p, int end) {
        int s = p;
        if (p < end && b[p] == '-') {
            p++;
        }
        if (p >= end) {
            return NO;
        }
        if (b[p] == '0') {
            p++;
        } else if (b[p] >= '1' && b[p] <= '9') {
            p = digits(b, p, end);
        } else {
            return NO;
        }
        if (p < end && b[p] == '.') {
            int d = digits(b, p + 1, end);
            if (d == p + 1) {
                return NO;
            }
            p = d;
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            int d = digits(b, p, end);
            if (d == p) {
                return NO;
            }
            p = d;
        }
        return p - s <= MAX_NUMBER && separatorAt(b, p, end) ? p : NO;
    }

    private static int digits(byte[] b, int p, int end) {
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p;
    }

    /** @return whether a scalar may end before {@code p}: whitespace, {@code ,} {@code ]} {@code }} (the end is not) */
    private static boolean separatorAt(byte[] b, int p, int end) {
        if (p >= end) {
            return false; // a scalar is never the payload's last byte here: the chunk's '}' follows
        }
        byte c = b[p];
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /** @return whether {@code b[s, e)} is the name */
    static boolean is(byte[] b, int s, int e, byte[] name) {
        if (e - s != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (b[s + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    static int ws(byte[] b, int p, int end) {
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return p;
            }
            p++;
        }
        return p;
    }

    static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}

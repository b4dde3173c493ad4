package io.capstream.loadgen.client;

import java.nio.charset.StandardCharsets;

/**
 * The strings of {@link ChatChunkReader}: checks a JSON string's bytes (RFC 8259 §7: no raw control characters, the
 * escapes {@code \" \\ \/ \b \f \n \r \t \}{@code uXXXX}) and its UTF-8 (only well-formed sequences, Unicode 15 §3.9
 * table 3-7: no overlong forms, no encoded surrogates, nothing above U+10FFFF), and decodes a checked string to the
 * characters Jackson gives for it (a {@code \}{@code uXXXX} escape is that UTF-16 unit, paired or not). Every string
 * this accepts is one Jackson accepts with the same characters; anything else is refused, never repaired.
 * Stateless.
 */
final class JsonStrings {
    private JsonStrings() {
    }

    /**
     * Finds the end of a string and checks its bytes.
     *
     * @param b   bytes
     * @param p   the position after the string's opening quote
     * @param end the end of the readable bytes
     * @return the position of its closing quote, or -1 when the bytes are not a string of the grammar above before
     *         {@code end}
     */
    static int end(byte[] b, int p, int end) {
        while (p < end) {
            byte c = b[p];
            if (c == '"') {
                return p;
            }
            if (c == '\\') {
                int n = escapeLength(b, p, end);
                if (n < 0) {
                    return -1;
                }
                p += n;
            } else if (c < 0x20) {
                if (c >= 0) {
                    return -1; // a raw control character
                }
                int n = utf8Length(b, p, end);
                if (n < 0) {
                    return -1;
                }
                p += n;
            } else {
                p++;
            }
        }
        return -1;
    }

    /**
     * @param b   bytes
     * @param p   the position of a byte above 0x7F
     * @param end the end of the readable bytes
     * @return the length of the well-formed UTF-8 sequence starting there (2-4), or -1 when there is none
     */
    static int utf8Length(byte[] b, int p, int end) {
        int c = b[p] & 0xff;
        int n;
        int lo = 0x80;
        int hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0) {
                lo = 0xa0;
            } else if (c == 0xed) {
                hi = 0x9f;
            }
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0) {
                lo = 0x90;
            } else if (c == 0xf4) {
                hi = 0x8f;
            }
        } else {
            return -1;
        }
        if (p + n > end) {
            return -1;
        }
        int second = b[p + 1] & 0xff;
        if (second < lo || second > hi) {
            return -1;
        }
        for (int i = 2; i < n; i++) {
            if ((b[p + i] & 0xc0) != 0x80) {
                return -1;
            }
        }
        return n;
    }

    /** @return the length of the escape at {@code p} ({@code \}), 2 or 6, or -1 when it is not one of the grammar */
    private static int escapeLength(byte[] b, int p, int end) {
        if (p + 1 >= end) {
            return -1;
        }
        switch (b[p + 1]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
                return 2;
            case 'u':
                if (p + 6 > end) {
                    return -1;
                }
                for (int i = p + 2; i < p + 6; i++) {
                    if (hex(b[i]) < 0) {
                        return -1;
                    }
                }
                return 6;
            default:
                return -1;
        }
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * Decodes a string checked by {@link #end}.
     *
     * @param b bytes
     * @param s the position after its opening quote
     * @param e the position of its closing quote
     * @return its characters
     */
    static String decode(byte[] b, int s, int e) {
        int i = s;
        while (i < e && b[i] != '\\') {
            i++;
        }
        if (i == e) {
            return new String(b, s, e - s, StandardCharsets.UTF_8); // well-formed UTF-8: decoded as Jackson does
        }
        StringBuilder sb = new StringBuilder(e - s);
        int run = s; // the start of the bytes since the last escape: well-formed UTF-8, decoded by the JDK
        while (i < e) {
            if (b[i] != '\\') {
                i++;
                continue;
            }
            sb.append(new String(b, run, i - run, StandardCharsets.UTF_8));
            byte x = b[i + 1];
            switch (x) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) (hex(b[i + 2]) << 12 | hex(b[i + 3]) << 8 | hex(b[i + 4]) << 4 | hex(b[i + 5])));
                    i += 4;
                }
                default -> sb.append((char) x); // " \ /
            }
            i += 2;
            run = i;
        }
        return sb.append(new String(b, run, e - run, StandardCharsets.UTF_8)).toString();
    }
}

package io.capstream.schemas.artifact;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The artifact writer behind {@link ArtifactJson#write(JsonNode)}: Python's
 * {@code json.dumps(obj, indent=2, sort_keys=True)} with {@code ensure_ascii}, plus a trailing newline
 * (spec §9.1): 2-space indent, {@code "key": value}, keys sorted by code point at every level, every
 * character outside printable ASCII as lower-case {@code \\uXXXX}, floats in Python {@code repr} style
 * ({@link PythonFloatFormat}). Stateless and thread-safe (each call has a writer of its own).
 */
final class PythonJsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PythonJsonWriter() {
    }

    /**
     * @param root the tree, not null
     * @return the text with its trailing newline
     * @throws IllegalArgumentException when the tree holds NaN, Infinity or a non-JSON node (naming its JSON path)
     */
    static String write(JsonNode root) {
        StringBuilder sb = new StringBuilder(8192);
        try {
            new TreeWriter(sb).writeValue(root, 0);
        } catch (BadValue e) {
            throw e.toIllegalArgument();
        }
        sb.append('\n');
        return sb.toString();
    }

    /**
     * A value that cannot be written; carries the JSON path, built from the leaf upwards only when
     * this happens (the writer does not track paths on the normal path).
     */
    private static final class BadValue extends RuntimeException {
        private final String prefix;
        private final String suffix;
        private final List<String> segments = new ArrayList<>();

        BadValue(String prefix, String suffix) {
            super(null, null, false, false);
            this.prefix = prefix;
            this.suffix = suffix;
        }

        BadValue within(String segment) {
            segments.add(segment);
            return this;
        }

        IllegalArgumentException toIllegalArgument() {
            StringBuilder path = new StringBuilder("$");
            for (int i = segments.size() - 1; i >= 0; i--) {
                path.append(segments.get(i));
            }
            return new IllegalArgumentException(prefix + path + suffix);
        }
    }

    /**
     * One {@link #write(JsonNode)} call: the output and the last object shape (its keys in
     * iteration order, their sorted order and their rendered {@code "key": } prefixes), reused while
     * consecutive objects (such as the rows of an array) have the same keys in the same order.
     */
    private static final class TreeWriter {
        private final StringBuilder sb;
        private String[] lastKeys;
        private int[] lastOrder;
        private String[] lastRendered;

        TreeWriter(StringBuilder sb) {
            this.sb = sb;
        }

        void writeValue(JsonNode n, int indent) {
            switch (n.getNodeType()) {
                case OBJECT -> writeObject(n, indent);
                case ARRAY -> writeArray(n, indent);
                case STRING -> writeString(sb, n.textValue());
                case BOOLEAN -> sb.append(n.booleanValue() ? "true" : "false");
                case NULL -> sb.append("null");
                case NUMBER -> writeNumber(n);
                default -> throw new BadValue("not a JSON value at ", ": " + n.getNodeType());
            }
        }

        private void writeNumber(JsonNode n) {
            if (n.isIntegralNumber()) {
                if (n.canConvertToLong()) {
                    sb.append(n.longValue());
                } else {
                    sb.append(n.bigIntegerValue().toString());
                }
                return;
            }
            double v = n.doubleValue();
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                throw new BadValue("NaN/Infinity not allowed in artifact JSON at ", "");
            }
            PythonFloatFormat.appendRepr(sb, v);
        }

        private void writeObject(JsonNode n, int indent) {
            int size = n.size();
            if (size == 0) {
                sb.append("{}");
                return;
            }
            String[] keys = new String[size];
            JsonNode[] values = new JsonNode[size];
            int k = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); k++) {
                Map.Entry<String, JsonNode> e = it.next();
                keys[k] = e.getKey();
                values[k] = e.getValue();
            }
            if (!sameShape(keys)) {
                newShape(keys);
            }
            int[] order = lastOrder;
            String[] rendered = lastRendered;
            sb.append('{');
            for (int i = 0; i < size; i++) {
                int j = order[i];
                if (i > 0) {
                    sb.append(',');
                }
                newline(sb, indent + 1);
                sb.append(rendered[i]);
                try {
                    writeValue(values[j], indent + 1);
                } catch (BadValue e) {
                    throw e.within("." + keys[j]);
                }
            }
            newline(sb, indent);
            sb.append('}');
        }

        private boolean sameShape(String[] keys) {
            String[] last = lastKeys;
            if (last == null || last.length != keys.length) {
                return false;
            }
            for (int i = 0; i < keys.length; i++) {
                String a = last[i];
                String b = keys[i];
                if (a != b && !a.equals(b)) {
                    return false;
                }
            }
            return true;
        }

        /** Sorts the keys by code point and renders each as {@code "key": } (the one key format). */
        private void newShape(String[] keys) {
            Integer[] idx = new Integer[keys.length];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            java.util.Arrays.sort(idx, (x, y) -> compareCodePoints(keys[x], keys[y]));
            int[] order = new int[keys.length];
            String[] rendered = new String[keys.length];
            StringBuilder key = new StringBuilder(32);
            for (int i = 0; i < order.length; i++) {
                order[i] = idx[i];
                key.setLength(0);
                writeString(key, keys[order[i]]);
                rendered[i] = key.append(": ").toString();
            }
            lastKeys = keys;
            lastOrder = order;
            lastRendered = rendered;
        }

        private void writeArray(JsonNode n, int indent) {
            int size = n.size();
            if (size == 0) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            for (int i = 0; i < size; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                newline(sb, indent + 1);
                try {
                    writeValue(n.get(i), indent + 1);
                } catch (BadValue e) {
                    throw e.within("[" + i + "]");
                }
            }
            newline(sb, indent);
            sb.append(']');
        }
    }

    private static final char[] SPACES = " ".repeat(64).toCharArray();

    /** A newline and {@code indent} levels of two spaces. */
    static void newline(StringBuilder sb, int indent) {
        sb.append('\n');
        int spaces = 2 * indent;
        while (spaces > SPACES.length) {
            sb.append(SPACES);
            spaces -= SPACES.length;
        }
        sb.append(SPACES, 0, spaces);
    }

    /** Python {@code json} string encoding with {@code ensure_ascii=True}. */
    static void writeString(StringBuilder sb, String s) {
        int len = s.length();
        int plain = 0;
        while (plain < len) {
            char c = s.charAt(plain);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                break;
            }
            plain++;
        }
        sb.append('"');
        if (plain == len) {
            sb.append(s).append('"');
            return;
        }
        sb.append(s, 0, plain);
        for (int i = plain; i < len; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c >= 0x20 && c <= 0x7e) {
                        sb.append(c);
                    } else {
                        sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                                .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Python sorts str keys by code point, which differs from UTF-16 order only above U+FFFF. */
    static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int k = 0; k < n; k++) {
            char x = a.charAt(k);
            char y = b.charAt(k);
            if (x != y) {
                if (x < Character.MIN_SURROGATE && y < Character.MIN_SURROGATE) {
                    return x - y;
                }
                return compareCodePointsSlow(a, b);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    private static int compareCodePointsSlow(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}

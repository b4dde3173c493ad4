package io.capstream.schemas.artifact;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code anvil-serving.benchmark/v1} artifact JSON codec (spec §9.1).
 *
 * <p><b>Writer</b> ({@link #write(JsonNode)}): byte-compatible with the reference's
 * {@code json.dumps(obj, indent=2, sort_keys=True)} (ensure_ascii) plus a trailing newline:
 * UTF-8, 2-space indent, {@code "key": value}, empty containers as {@code {}} / {@code []}, object
 * keys sorted by code point at every level, every character outside printable ASCII escaped as
 * lower-case {@code \\uXXXX} (control characters use {@code \\n \\r \\t \\b \\f}), integers as
 * integers, floating-point numbers in Python {@code repr} style ({@link PythonFloatFormat}, so
 * integer-valued floats keep {@code .0}). NaN and Infinity are rejected with
 * {@link IllegalArgumentException} naming the JSON path.
 *
 * <p><b>Reader</b> ({@link #read(Path)}, {@link #parse(String)}): plain JSON into a Jackson tree
 * that keeps the int-versus-float distinction of every number ({@code 3613} is an integral node,
 * {@code 3613.0} a double node). It accepts the non-standard {@code NaN}/{@code Infinity} tokens
 * that Python's {@code json} module can write, so that validators can report them by field instead
 * of failing with a parse error. It reads every artifact generation (legacy, capacity-v2, early and
 * current capacity-v3, capacity-v4-reasoning); see {@link ArtifactGeneration}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ArtifactJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ArtifactJson() {
    }

    /** @return a shared, read-only-configured mapper for building artifact trees ({@code createObjectNode()}). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** @return the node factory for building artifact trees. */
    public static JsonNodeFactory nodes() {
        return MAPPER.getNodeFactory();
    }

    /**
     * Parses artifact text.
     *
     * @param text JSON text, not null
     * @return the tree (never null; a JSON {@code null} document gives a NullNode)
     * @throws JsonProcessingException when the text is not JSON
     */
    public static JsonNode parse(String text) throws JsonProcessingException {
        JsonNode n = MAPPER.readTree(text);
        if (n == null || n.isMissingNode()) {
            throw new com.fasterxml.jackson.core.JsonParseException(null, "empty document");
        }
        return n;
    }

    /**
     * Reads an artifact file (UTF-8).
     *
     * @param file the file
     * @return the tree
     * @throws IOException when the file cannot be read, is larger than {@link #MAX_FILE_BYTES}, is not UTF-8 text or
     *                     is not JSON (its message then says so in capstream's words, with the line)
     */
    public static JsonNode read(Path file) throws IOException {
        String text = readText(file);
        try {
            return parse(text);
        } catch (JsonProcessingException e) {
            throw new IOException(io.capstream.schemas.text.JsonInputErrors.message(e, null), e);
        }
    }

    /**
     * Reads an artifact file's text, refusing what cannot be one in capstream's words.
     *
     * @param file the file
     * @return its text (UTF-8)
     * @throws IOException when it cannot be read, is larger than {@link #MAX_FILE_BYTES} or is not UTF-8 text
     *                     ({@code "not UTF-8 text (a binary file?)"}, where the JDK says only {@code Input length = 1})
     */
    public static String readText(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new IOException(String.format(java.util.Locale.ROOT, "%,d bytes: larger than the %,d bytes a report"
                    + " file may have", size, MAX_FILE_BYTES));
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException("not UTF-8 text (a binary file?)", e);
        }
    }

    /** Largest file {@link #read(Path)} reads, bytes (1 GiB; a 100,000-request report is about 68 MB). */
    public static final long MAX_FILE_BYTES = 1L << 30;

    /**
     * Serialises a tree exactly as the reference writes an artifact (spec §9.1), including the
     * trailing newline.
     *
     * @param root the tree, not null
     * @return the text
     * @throws IllegalArgumentException when the tree holds NaN, Infinity or a non-JSON node
     */
    public static String write(JsonNode root) {
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
     * Writes {@link #write(JsonNode)} of {@code root} to {@code target} atomically.
     *
     * @param target destination file
     * @param root the tree
     * @throws IOException on I/O failure (the target is then unchanged)
     * @throws IllegalArgumentException as {@link #write(JsonNode)}, before anything is written
     */
    public static void writeAtomically(Path target, JsonNode root) throws IOException {
        writeAtomically(target, write(root));
    }

    /**
     * Writes text to {@code target} atomically: a temporary sibling file is written, fsynced and
     * renamed over the target (spec §9.1); the directory is fsynced when the platform allows it.
     *
     * @param target destination file
     * @param text the exact file content (UTF-8)
     * @throws IOException on I/O failure (the temporary file is removed, the target unchanged)
     */
    public static void writeAtomically(Path target, String text) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = dir.resolve("." + abs.getFileName() + ".tmp-" + UUID.randomUUID());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // directory fsync is not supported everywhere; the rename itself is atomic
        }
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

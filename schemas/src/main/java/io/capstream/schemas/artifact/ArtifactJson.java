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
     * @throws IOException when the file cannot be read or is not JSON ({@link JsonProcessingException})
     */
    public static JsonNode read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

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
        writeValue(sb, root, 0, "$");
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

    private static void writeValue(StringBuilder sb, JsonNode n, int indent, String path) {
        switch (n.getNodeType()) {
            case OBJECT -> writeObject(sb, n, indent, path);
            case ARRAY -> writeArray(sb, n, indent, path);
            case STRING -> writeString(sb, n.textValue());
            case BOOLEAN -> sb.append(n.booleanValue() ? "true" : "false");
            case NULL -> sb.append("null");
            case NUMBER -> writeNumber(sb, n, path);
            default -> throw new IllegalArgumentException("not a JSON value at " + path + ": " + n.getNodeType());
        }
    }

    private static void writeNumber(StringBuilder sb, JsonNode n, String path) {
        if (n.isIntegralNumber()) {
            sb.append(n.bigIntegerValue().toString());
            return;
        }
        double v = n.doubleValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("NaN/Infinity not allowed in artifact JSON at " + path);
        }
        sb.append(PythonFloatFormat.repr(v));
    }

    private static void writeObject(StringBuilder sb, JsonNode n, int indent, String path) {
        if (n.isEmpty()) {
            sb.append("{}");
            return;
        }
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(n.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            entries.add(it.next());
        }
        entries.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> e : entries) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            newline(sb, indent + 1);
            writeString(sb, e.getKey());
            sb.append(": ");
            writeValue(sb, e.getValue(), indent + 1, path + "." + e.getKey());
        }
        newline(sb, indent);
        sb.append('}');
    }

    private static void writeArray(StringBuilder sb, JsonNode n, int indent, String path) {
        if (n.isEmpty()) {
            sb.append("[]");
            return;
        }
        sb.append('[');
        for (int i = 0; i < n.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            newline(sb, indent + 1);
            writeValue(sb, n.get(i), indent + 1, path + "[" + i + "]");
        }
        newline(sb, indent);
        sb.append(']');
    }

    private static void newline(StringBuilder sb, int indent) {
        sb.append('\n');
        for (int i = 0; i < indent; i++) {
            sb.append("  ");
        }
    }

    /** Python {@code json} string encoding with {@code ensure_ascii=True}. */
    static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
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

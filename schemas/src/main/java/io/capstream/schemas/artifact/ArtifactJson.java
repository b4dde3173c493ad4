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
 * integer-valued floats keep {@code .0}; {@link PythonJsonWriter}). NaN and Infinity are rejected with
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
        return PythonJsonWriter.write(root);
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
}

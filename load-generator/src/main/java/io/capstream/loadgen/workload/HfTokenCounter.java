package io.capstream.loadgen.workload;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Token counts by a Hugging Face {@code tokenizer.json} ({@code --tokenizer FILE}), through DJL's
 * tokenizers binding (a native library bundled in its jar). Counts exclude special tokens and are never
 * truncated (DJL's default would stop at 512 tokens). Thread-safe
 * (the native tokenizer is immutable); {@link #close()} frees the native tokenizer.
 */
public final class HfTokenCounter implements TokenCounter, AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final String name;

    private HfTokenCounter(HuggingFaceTokenizer tokenizer, String name) {
        this.tokenizer = tokenizer;
        this.name = name;
    }

    /**
     * @param file a Hugging Face {@code tokenizer.json}
     * @return its counter
     * @throws IllegalArgumentException with a one-line message when the file is missing or unreadable, is not a
     *         tokenizer, or the native library cannot load on this machine
     */
    public static HfTokenCounter open(Path file) {
        if (fileProblem(file) != null) {
            throw new IllegalArgumentException(fileProblem(file));
        }
        try {
            // DJL truncates to 512 tokens unless told not to: a count must see the whole text
            return new HfTokenCounter(HuggingFaceTokenizer.newInstance(file,
                    java.util.Map.of("truncation", "false", "padding", "false")), file.getFileName().toString());
        } catch (Exception | LinkageError e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalArgumentException("--tokenizer " + file + ": cannot load the tokenizer (" + why + ")");
        }
    }

    /**
     * @param file the {@code --tokenizer} path
     * @return {@code --tokenizer: no readable file FILE}, or null when it is a readable regular file
     */
    public static String fileProblem(Path file) {
        return Files.isRegularFile(file) && Files.isReadable(file) ? null : "--tokenizer: no readable file " + file;
    }

    @Override
    public int count(String text) {
        return tokenizer.encode(text, false, false).getIds().length;
    }

    @Override
    public String name() {
        return name;
    }

    /** Frees the native tokenizer; counting afterwards is an error. */
    @Override
    public void close() {
        tokenizer.close();
    }
}

package io.capstream.cli.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The report file: {@code --output}, or {@code capstream-report-<run_id>.json} in the current
 * directory. Checked before any request is sent (spec §1): the parent must exist and a file must
 * be creatable in it (tried with a temporary file, removed at once: permission bits alone pass
 * {@code /proc} or a read-only mount), and the path must be neither a symlink, a directory nor
 * any other non-regular file such as {@code /dev/null} (the report replaces the file by a rename).
 */
public final class OutputPath {
    private OutputPath() {
    }

    /**
     * @param output the {@code --output} value, or null for the default name in the current directory
     * @return a usage error message, or null when the path is acceptable
     */
    public static String check(String output) {
        Path p = output == null ? Path.of("capstream-report-check.json").toAbsolutePath() : Path.of(output).toAbsolutePath();
        Path parent = p.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "--output: directory " + parent + " does not exist";
        }
        if (output != null && Files.isSymbolicLink(p)) {
            return "--output: " + p + " is a symlink";
        }
        if (output != null && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return "--output: " + p + " is a directory";
        }
        if (output != null && Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return "--output: " + p + " is not a regular file";
        }
        if (!Files.isWritable(parent)) {
            return "--output: directory " + parent + " is not writable";
        }
        try {
            // the report is written as a temporary file in the same directory, then renamed: try exactly that
            Path probe = Files.createTempFile(parent, ".capstream-output-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException | RuntimeException e) {
            return "--output: cannot create a file in " + parent + " (" + reason(e) + ")";
        }
        return null;
    }

    /** @return why the probe file could not be created, without the probe's own name */
    private static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "the directory accepts no new files";
        }
        if (e instanceof java.nio.file.FileSystemException fse) {
            return fse.getReason() != null ? fse.getReason() : fse.getClass().getSimpleName();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * @param output the {@code --output} value, or null
     * @param runId  the run id
     * @return the file to write
     */
    public static Path resolve(String output, String runId) {
        return output != null ? Path.of(output) : Path.of("capstream-report-" + runId + ".json");
    }
}

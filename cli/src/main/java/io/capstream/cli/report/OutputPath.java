package io.capstream.cli.report;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The report file: {@code --output}, or {@code capstream-report-<run_id>.json} in the current
 * directory. Checked before any request is sent (spec §1): the parent must exist and be writable,
 * and the path must be neither a symlink nor a directory.
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
        if (!Files.isWritable(parent)) {
            return "--output: directory " + parent + " is not writable";
        }
        if (output != null && Files.isSymbolicLink(p)) {
            return "--output: " + p + " is a symlink";
        }
        if (output != null && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return "--output: " + p + " is a directory";
        }
        return null;
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

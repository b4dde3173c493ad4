package io.capstream.cli.up;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks {@code up --data-dir} before anything starts: the directory exists or can be created, and can be written.
 * Stateless.
 */
public final class DataDirCheck {
    private DataDirCheck() {
    }

    /**
     * Creates the directory (and its parents) when it does not exist yet, as the embedded broker would.
     *
     * @param dir the {@code --data-dir} value; not null
     * @return null when the directory is usable, else why not, naming the path, e.g. {@code --data-dir /x/y cannot
     *         be created: no such file or directory (/x)}
     */
    public static String problem(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--data-dir " + dir + " is not a directory";
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            return "--data-dir " + dir + " cannot be created: " + reason(e);
        }
        if (!Files.isWritable(dir)) {
            return "--data-dir " + dir + " is not writable";
        }
        return null;
    }

    private static String reason(IOException e) {
        String why;
        if (e instanceof NoSuchFileException) {
            why = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            why = f.getReason().toLowerCase(Locale.ROOT);
        } else {
            why = String.valueOf(e.getMessage());
        }
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        return file == null ? why : why + " (" + file + ")";
    }
}

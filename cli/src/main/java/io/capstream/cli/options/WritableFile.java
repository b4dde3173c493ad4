package io.capstream.cli.options;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whether an output file ({@code --output}, {@code --html}, {@code --csv}, {@code --json}) can be written, checked
 * before anything runs. Every such file is written as a temporary sibling and then renamed over the path, so the
 * path must be neither a symlink, a directory nor any other non-regular file (e.g. {@code /dev/null}), and a file
 * must be creatable where it goes: tried with a temporary file, removed at once (permission bits alone pass
 * {@code /proc} or a read-only mount).
 */
public final class WritableFile {
    private WritableFile() {
    }

    /**
     * @param file           the output path (relative to the working directory or absolute); not null
     * @param createsParents true when missing parent directories are created at write time (then the nearest
     *                       existing ancestor must be a directory that accepts files); false when the parent
     *                       directory must exist already
     * @return why no file can be written at {@code file} (a message naming the path, without the option), or
     *     null when it can
     */
    public static String problem(Path file, boolean createsParents) {
        Path p = file.toAbsolutePath().normalize();
        Path dir;
        if (createsParents) {
            dir = p.getParent();
            while (dir != null && !Files.exists(dir)) {
                dir = dir.getParent();
            }
            if (dir == null || !Files.isDirectory(dir)) {
                return "cannot create " + p.getParent() + " (" + dir + " is not a directory)";
            }
        } else {
            dir = p.getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                return "directory " + dir + " does not exist";
            }
        }
        if (Files.isSymbolicLink(p)) {
            return p + " is a symlink";
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return p + " is a directory";
        }
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return p + " is not a regular file";
        }
        if (!createsParents && !Files.isWritable(dir)) {
            return "directory " + dir + " is not writable";
        }
        try {
            Path probe = Files.createTempFile(dir, ".capstream-output-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException | RuntimeException e) {
            return "cannot create a file in " + dir + " (" + reason(e) + ")";
        }
        return null;
    }

    /** @return why the probe file could not be created, without the probe's own name */
    private static String reason(Exception e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "the directory accepts no new files";
        }
        if (e instanceof FileSystemException fse) {
            return fse.getReason() != null ? fse.getReason() : fse.getClass().getSimpleName();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}

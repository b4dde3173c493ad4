package io.capstream.cli.options;

import java.io.File;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
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
     * The check of an output file option ({@code --output}, {@code --html}, {@code --csv}, {@code report --json},
     * {@code compare --html}) on its value as given, before anything runs. A value that names a directory, by ending
     * in {@code /} (picocli's {@code Path} conversion would drop it, and a file named like the directory was written)
     * or in {@code /.} or {@code /..}, or by being an existing directory, is refused with an example file name in it:
     * these options name the file itself, there is no default name inside a directory. Then as
     * {@link #problem(Path, boolean)} with missing parent directories created at write time.
     *
     * @param value       the option's value as given (command line, environment or config file); not null
     * @param exampleName a file name for the message, e.g. {@code report.html}; not null
     * @return why no file can be written for {@code value} (naming the path, without the option; e.g.
     *     {@code "out/ names a directory (it ends in '/'): give a file name, e.g. out/report.html"}), or null when
     *     it can
     */
    public static String problem(String value, String exampleName) {
        if (value.isBlank()) {
            return "no file name given";
        }
        String last = value.substring(Math.max(value.lastIndexOf('/'), value.lastIndexOf(File.separatorChar)) + 1);
        if (last.isEmpty()) {
            return value + " names a directory (it ends in '/'): give a file name, e.g. " + value + exampleName;
        }
        if (last.equals(".") || last.equals("..")) {
            return value + " names a directory: give a file name, e.g. " + value + "/" + exampleName;
        }
        Path file;
        try {
            file = Path.of(value);
        } catch (InvalidPathException e) {
            return "'" + value + "' is not a valid path (" + e.getReason() + ")";
        }
        Path p = file.toAbsolutePath().normalize();
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return p + " is a directory: give a file name, e.g. " + p.resolve(exampleName);
        }
        return problem(file, true);
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

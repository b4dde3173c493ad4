package io.capstream.cli.report;

import io.capstream.cli.options.WritableFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The report file: {@code --output}, or {@code capstream-report-<run_id>.json} in the current
 * directory. Checked before any request is sent (spec §1): {@code --output} names a file, not a directory (nor
 * a value ending in {@code /}), and a file must be creatable there, missing parent
 * directories being created when the report is written, as for {@code --html} and {@code --csv}
 * ({@link WritableFile#problem(String, String)}, {@link RunViews#writeFile}).
 */
public final class OutputPath {
    private OutputPath() {
    }

    /**
     * @param output the {@code --output} value, or null for the default name in the current directory
     * @return a usage error message, or null when the path is acceptable
     */
    public static String check(String output) {
        String problem = WritableFile.problem(output == null ? "capstream-report-check.json" : output,
                "report.json");
        return problem == null ? null : "--output: " + problem;
    }

    /**
     * @param output the {@code --output} value, or null
     * @param runId  the run id
     * @return the file to write
     */
    public static Path resolve(String output, String runId) {
        return output != null ? Path.of(output) : Path.of("capstream-report-" + runId + ".json");
    }

    /**
     * The file a run's report is written to, so that two runs that got the same id do not write one file: the
     * derived run id has second resolution (spec §9.2: {@code benchmark-YYYYMMDDTHHMMSSZ}), and two runs started in
     * the same second in one directory each wrote {@code capstream-report-<run_id>.json}, the last one replacing the
     * other's (a fresh user lost a run that way, both exiting 0). {@code --output} is used as given. The default
     * name is claimed by creating it empty (atomically: of two runs, one gets it); when it exists and was written
     * since {@code notBefore} (this process's start: by another process's run), the next free
     * {@code capstream-report-<run_id>-N.json} (N = 2, 3, ...) is claimed instead. A default-named file older than
     * that (an earlier run given the same {@code --run-id}) is written over, as before.
     *
     * @param output    the {@code --output} value, or null
     * @param runId     the run id; not null
     * @param notBefore files of the default name modified at or after this instant belong to another run; not null
     * @param dir       the directory of the default name (the current directory in a run); not null
     * @return the file to write (created empty when it is a default name claimed here)
     */
    public static Path claim(String output, String runId, Instant notBefore, Path dir) {
        if (output != null) {
            return Path.of(output);
        }
        Path first = dir.resolve(resolve(null, runId));
        if (createdHere(first) || !since(first, notBefore)) {
            return first;
        }
        for (int n = 2; n < 1000; n++) {
            Path next = dir.resolve("capstream-report-" + runId + "-" + n + ".json");
            if (createdHere(next)) {
                return next;
            }
        }
        return first;
    }

    /**
     * {@link #claim} as a run's report file function, telling {@code notice} when the file is not the default name.
     *
     * @param output    the {@code --output} value, or null
     * @param notBefore see {@link #claim}; not null
     * @param dir       see {@link #claim}; not null
     * @param notice    told one line when another run wrote the default name; not null
     * @return run id to the file to write
     */
    public static Function<String, Path> claimer(String output, Instant notBefore, Path dir, Consumer<String> notice) {
        return runId -> {
            Path file = claim(output, runId, notBefore, dir);
            if (output == null && !file.equals(dir.resolve(resolve(null, runId)))) {
                notice.accept("another run that started in the same second wrote " + resolve(null, runId)
                        + " (run ids have second resolution, spec 9.2); this run's report goes to " + file);
            }
            return file;
        };
    }

    private static boolean createdHere(Path p) {
        try {
            Files.createFile(p);
            return true;
        } catch (IOException e) { // exists, or cannot be created: the writer says why
            return false;
        }
    }

    private static boolean since(Path p, Instant notBefore) {
        try {
            return !Files.getLastModifiedTime(p).toInstant().isBefore(notBefore);
        } catch (IOException e) {
            return false;
        }
    }
}

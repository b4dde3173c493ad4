package io.capstream.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --html FILE} and {@code --csv FILE}, the visual outputs of a report (issue 13), shared by
 * {@code run}, {@code import}, {@code replay}, {@code sweep} and {@code report} (picocli mixin:
 * {@code @Mixin VisualOutputOptions visual;}): the self-contained HTML page and the per-request CSV,
 * written after the report itself. Missing parent directories are created when the files are written;
 * {@link #problems} checks, before anything runs, that they can be.
 */
public final class VisualOutputOptions {
    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write the report as one self-contained HTML page (charts and data inlined, works"
                    + " offline). Missing parent directories are created.")
    Path html;

    @Option(names = "--csv", paramLabel = "FILE",
            description = "Also write one CSV row per request (ordered by request_index): the report's"
                    + " request_timings columns, status (ok|failed), error_type, error_message, and start_ms,"
                    + " first_token_ms, end_ms, queue_ms from the run's timeline when the report has one."
                    + " Missing parent directories are created.")
    Path csv;

    /** @return the {@code --html} file, or null when not given */
    public Path html() {
        return html;
    }

    /** @return the {@code --csv} file, or null when not given */
    public Path csv() {
        return csv;
    }

    /** @return whether {@code --html} or {@code --csv} was given */
    public boolean any() {
        return html != null || csv != null;
    }

    /**
     * Checks both files before any work (usage errors): each must be creatable (its nearest existing
     * ancestor a directory that accepts a new file, tried with a temporary file removed at once), not a
     * directory, symlink or other non-regular file, and neither may be the same file as the other or as
     * one of {@code taken} (the report file itself).
     *
     * @param taken other files the command writes (e.g. its {@code --output}); null entries are ignored
     * @return one message per problem without command prefix, e.g. {@code "--html: /proc/x.html: cannot
     *         create a file in /proc (the directory accepts no new files)"}; empty when both will do
     */
    public List<String> problems(Path... taken) {
        List<String> problems = new ArrayList<>();
        check("--html", html, problems);
        check("--csv", csv, problems);
        if (html != null && csv != null && same(html, csv)) {
            problems.add("--html and --csv name the same file " + html);
        }
        for (Path other : taken) {
            if (other == null) {
                continue;
            }
            if (html != null && same(html, other)) {
                problems.add("--html: " + html + " is the report file itself");
            }
            if (csv != null && same(csv, other)) {
                problems.add("--csv: " + csv + " is the report file itself");
            }
        }
        return problems;
    }

    private static boolean same(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    private static void check(String option, Path file, List<String> problems) {
        String problem = fileProblem(option, file);
        if (problem != null) {
            problems.add(problem);
        }
    }

    /**
     * The check of {@link #problems} for one more output file of a command (e.g. {@code report --json},
     * {@code compare --html}).
     *
     * @param option the option's name, e.g. {@code --json}
     * @param file   the file, or null when the option was not given
     * @return {@code "<option>: <problem>"}, or null when the file can be written (or is null)
     */
    public static String fileProblem(String option, Path file) {
        if (file == null) {
            return null;
        }
        String problem = WritableFile.problem(file, true);
        return problem == null ? null : option + ": " + problem;
    }
}

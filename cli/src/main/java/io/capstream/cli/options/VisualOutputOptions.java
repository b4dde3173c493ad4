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
 * {@link #problems} checks, before anything runs, that they can be, on the values as given (kept as text: a
 * trailing {@code /}, which names a directory, is refused rather than dropped by a {@code Path} conversion).
 */
public final class VisualOutputOptions {
    /** How every output file option is read, for the help texts. */
    public static final String FILE_RULE = "Missing parent directories are created; a directory (or a value ending"
            + " in /) is a usage error.";

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write the report as one self-contained HTML page (charts and data inlined, works"
                    + " offline). " + FILE_RULE)
    String html;

    @Option(names = "--csv", paramLabel = "FILE",
            description = "Also write one CSV row per request (ordered by request_index): the report's"
                    + " request_timings columns, status (ok|failed), error_type, error_message, and start_ms,"
                    + " first_token_ms, end_ms, queue_ms from the run's timeline when the report has one."
                    + " " + FILE_RULE)
    String csv;

    /**
     * @return the {@code --html} file, or null when not given
     * @throws java.nio.file.InvalidPathException when it is not a path ({@link #problems} says so first)
     */
    public Path html() {
        return html == null ? null : Path.of(html);
    }

    /**
     * @return the {@code --csv} file, or null when not given
     * @throws java.nio.file.InvalidPathException when it is not a path ({@link #problems} says so first)
     */
    public Path csv() {
        return csv == null ? null : Path.of(csv);
    }

    /** @return whether {@code --html} or {@code --csv} was given */
    public boolean any() {
        return html != null || csv != null;
    }

    /**
     * Another file of the command, which neither output may replace: the report it writes, or a report it reads.
     *
     * @param path the file; null = none (ignored)
     * @param what how the message names it, e.g. {@code "the report file itself"}, {@code "the report being read"}
     */
    public record Taken(Path path, String what) {
    }

    /**
     * Checks both files before any work (usage errors): each must name a file, not a directory (a value ending in
     * {@code /} included, {@link WritableFile#problem(String, String)}), be creatable (its nearest existing
     * ancestor a directory that accepts a new file, tried with a temporary file removed at once), not a
     * symlink or other non-regular file, and neither may be the same file as the other or as
     * one of {@code taken} (what the command writes or reads: writing there would replace it).
     *
     * @param taken the command's other files; entries with a null path are ignored
     * @return one message per problem without command prefix, e.g. {@code "--html: /proc/x.html: cannot
     *         create a file in /proc (the directory accepts no new files)"} or {@code "--csv: r.json is the
     *         report being read"}; empty when both will do
     */
    public List<String> problems(Taken... taken) {
        List<String> problems = new ArrayList<>();
        String htmlProblem = fileProblem("--html", html, "report.html");
        String csvProblem = fileProblem("--csv", csv, "requests.csv");
        addIfNotNull(problems, htmlProblem);
        addIfNotNull(problems, csvProblem);
        Path htmlFile = htmlProblem == null ? html() : null; // a file that can be written: compared with the others
        Path csvFile = csvProblem == null ? csv() : null;
        if (htmlFile != null && csvFile != null && same(htmlFile, csvFile)) {
            problems.add("--html and --csv name the same file " + html);
        }
        addIfNotNull(problems, collision("--html", htmlFile, taken));
        addIfNotNull(problems, collision("--csv", csvFile, taken));
        return problems;
    }

    /**
     * @param option the option's name
     * @param file   its file, or null
     * @param taken  the command's other files
     * @return {@code "<option>: <file> is <what>"} for the first of {@code taken} that is the same file, or null
     */
    public static String collision(String option, Path file, Taken... taken) {
        if (file == null) {
            return null;
        }
        for (Taken other : taken) {
            if (other != null && other.path() != null && same(file, other.path())) {
                return option + ": " + file + " is " + other.what();
            }
        }
        return null;
    }

    private static void addIfNotNull(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }

    private static boolean same(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /**
     * The check of {@link #problems} for one more output file of a command (e.g. {@code report --json},
     * {@code compare --html}), on the option's value as given ({@link WritableFile#problem(String, String)}).
     *
     * @param option      the option's name, e.g. {@code --json}
     * @param value       its value as given, or null when the option was not given
     * @param exampleName a file name for the message when the value names a directory, e.g. {@code report.json}
     * @return {@code "<option>: <problem>"}, or null when the file can be written (or is null)
     */
    public static String fileProblem(String option, String value, String exampleName) {
        if (value == null) {
            return null;
        }
        String problem = WritableFile.problem(value, exampleName);
        return problem == null ? null : option + ": " + problem;
    }
}

package io.capstream.cli.report;

import io.capstream.cli.options.WritableFile;
import java.nio.file.Path;

/**
 * The report file: {@code --output}, or {@code capstream-report-<run_id>.json} in the current
 * directory. Checked before any request is sent (spec §1): a file must be creatable there, missing parent
 * directories being created when the report is written, as for {@code --html} and {@code --csv}
 * ({@link WritableFile#problem(Path, boolean)}, {@link RunViews#writeFile}).
 */
public final class OutputPath {
    private OutputPath() {
    }

    /**
     * @param output the {@code --output} value, or null for the default name in the current directory
     * @return a usage error message, or null when the path is acceptable
     */
    public static String check(String output) {
        Path p = Path.of(output == null ? "capstream-report-check.json" : output);
        String problem = WritableFile.problem(p, true);
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
}

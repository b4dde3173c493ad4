package io.capstream.cli.report;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a run's report file so that a failed write loses no measurement: when the file ({@code --output}, or
 * the default {@code capstream-report-<run_id>.json}) cannot be written, e.g. on a full disk, the report goes to
 * a fallback file (the run's default name in the system temp directory) and the caller prints where. Without it
 * a run that ended with its embedded broker gone kept nothing of what it measured. Stateless.
 */
public final class ReportFile {
    /**
     * What was written.
     *
     * @param file    the file holding the report, or null when neither it nor the fallback could be written
     * @param problem null when the requested file was written, else one line: why it was not, and where the report
     *                went instead (or that the fallback failed too)
     */
    public record Written(Path file, String problem) {
    }

    private ReportFile() {
    }

    /**
     * @param file        the requested file; not null
     * @param json        the report's artifact JSON; not null
     * @param fallback    where the report goes when {@code file} cannot be written, e.g.
     *                    {@code /tmp/capstream-report-<run_id>.json}; not null
     * @return the file written and, when it is not {@code file}, the reason; never null, never throws
     */
    public static Written write(Path file, String json, Path fallback) {
        try {
            RunViews.writeFile(file, json);
            return new Written(file, null);
        } catch (IOException | RuntimeException e) {
            String problem = "cannot write the report to " + file + ": " + reason(e);
            if (fallback.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize())) {
                return new Written(null, problem);
            }
            try {
                RunViews.writeFile(fallback, json);
                return new Written(fallback, problem + "; written to " + fallback + " instead");
            } catch (IOException | RuntimeException e2) {
                return new Written(null, problem + "; nor to " + fallback + ": " + reason(e2));
            }
        }
    }

    private static String reason(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}

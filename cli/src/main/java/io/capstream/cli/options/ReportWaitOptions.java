package io.capstream.cli.options;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Options of the commands that push events through a report pipeline and wait for each report
 * ({@code import}, {@code replay}; picocli mixin: {@code @Mixin ReportWaitOptions reports;}):
 * {@code --output-dir}, {@code --timeout} and {@code --external-aggregator}, with their checks.
 *
 * <p>Each command words the descriptions for what it recomputes: the texts are in the command's
 * resource bundle ({@link ReportOptionTexts}, keys {@code <qualified command name>.<descriptionKey>});
 * the descriptions below are the fallback of a command without such a bundle.
 */
public final class ReportWaitOptions {
    /** Largest {@code --timeout}, seconds (one day), the bound of {@code run --report-timeout} too. */
    public static final long MAX_TIMEOUT_S = 86_400;

    @Option(names = "--output-dir", paramLabel = "DIR", defaultValue = "out", descriptionKey = "report-output-dir",
            description = "Where the recomputed reports are written. Default: ${DEFAULT-VALUE}.")
    Path outputDir;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "60s", descriptionKey = "report-timeout",
            converter = DurationConverter.Signed.class,
            description = "How long to wait for each report, e.g. 90s or 5m (a bare number is seconds), 1s to 1 day."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = "--external-aggregator", defaultValue = "false", descriptionKey = "external-aggregator",
            description = "Do not run the report topology in this process; wait for reports from a running"
                    + " 'capstream aggregate'.")
    boolean externalAggregator;

    /** @return where reports are written; never null once parsed */
    public Path outputDir() {
        return outputDir;
    }

    /** @return how long to wait for each report ({@code --timeout}); never null once parsed */
    public Duration timeout() {
        return timeout;
    }

    /** @return true when the reports come from a running {@code capstream aggregate}, not from this process */
    public boolean externalAggregator() {
        return externalAggregator;
    }

    /**
     * Checks the values against each other and the file system (before any work).
     *
     * @param bootstrapServersGiven whether {@code --bootstrap-servers} was given
     * @return the first problem as a usage message without command prefix (e.g. {@code "--timeout must be
     *         1..86400 seconds, got 0"}), or null when there is none
     */
    public String usageProblem(boolean bootstrapServersGiven) {
        if (externalAggregator && !bootstrapServersGiven) {
            return "--external-aggregator needs --bootstrap-servers";
        }
        String range = DurationConverter.rangeProblem("--timeout", timeout, 1, MAX_TIMEOUT_S);
        if (range != null) {
            return range;
        }
        if (outputDir != null && Files.exists(outputDir) && !Files.isDirectory(outputDir)) {
            return "--output-dir " + outputDir + " is not a directory";
        }
        return null;
    }
}

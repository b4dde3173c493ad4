package io.capstream.cli.options;

import java.util.ListResourceBundle;

/**
 * Help texts of the {@link ReportWaitOptions} as each command words them (picocli resource bundle,
 * {@code @Command(resourceBundle = "io.capstream.cli.options.ReportOptionTexts")}). Keys are
 * {@code <qualified command name>.<descriptionKey>}, so that one bundle serves {@code import} and
 * {@code replay}; {@code ${DEFAULT-VALUE}} is filled in by picocli.
 */
public final class ReportOptionTexts extends ListResourceBundle {
    /** The bundle's base name, for {@code @Command(resourceBundle = ...)}. */
    public static final String BASE_NAME = "io.capstream.cli.options.ReportOptionTexts";

    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            {"capstream.import.report-output-dir", "Where recomputed reports are written, one file per input with"
                    + " the input's name. Default: ${DEFAULT-VALUE}."},
            {"capstream.import.report-timeout", "How long to wait for each file's report, e.g. 90s or 5m (a bare"
                    + " number is seconds), 1s to 1 day."
                    + " Default: ${DEFAULT-VALUE}."},
            {"capstream.import.external-aggregator", "Do not run the report topology in this process; wait for"
                    + " reports from a running 'capstream aggregate' (needs --bootstrap-servers)."},
            {"capstream.replay.report-output-dir", "Where replay reports are written (<replay run id>.json)."
                    + " Default: ${DEFAULT-VALUE}."},
            {"capstream.replay.report-timeout", "How long to wait for each replay's report, e.g. 90s or 5m (a bare"
                    + " number is seconds), 1s to 1 day."
                    + " Default: ${DEFAULT-VALUE}."},
            {"capstream.replay.external-aggregator", "Do not run the report topology in this process; wait for"
                    + " reports from a running 'capstream aggregate'."},
        };
    }
}

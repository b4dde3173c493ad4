package io.capstream.aggregator.report.calc;

/**
 * Turns one SLO text of {@code RunStarted.slos} into a {@link RunSlo}. The aggregator's SLO grammar
 * implements it ({@code io.capstream.aggregator.slo.ReportSlos#parse}); the report does not know
 * the grammar (see {@link RunSlo}).
 */
@FunctionalInterface
public interface RunSloParser {
    /**
     * @param text the SLO as given, e.g. {@code ttft_p95_ms<=300}; not null
     * @return the SLO
     * @throws IllegalArgumentException when the text is not a valid SLO
     */
    RunSlo parse(String text);
}

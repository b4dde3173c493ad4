package io.capstream.cli.report;

import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.RunStatistics;
import java.util.Locale;

/**
 * The summary lines of an embeddings or rerank run (issue 30), shown by {@link SummaryTable} instead of the TTFT,
 * decode and token-throughput lines, which such runs do not have: the request latency p50/p95/p99 (ms), then the
 * inputs/s with the input tokens/s (usage), and the requests/s. Missing values print as {@code -}.
 */
final class InputsSummary {
    private InputsSummary() {
    }

    /**
     * @param stats the report's statistics, or null
     * @return whether the run is an embeddings or rerank run (its statistics have a request latency)
     */
    static boolean applies(RunStatistics stats) {
        return stats != null && stats.getRequestLatencyMs() != null;
    }

    /**
     * @param stats the report's statistics, with a request latency ({@link #applies}); not null
     * @return the lines, each ending in {@code \n}, beginning with the table's header and ending with a blank line
     *         before the rate lines
     */
    static String render(RunStatistics stats) {
        Distribution d = stats.getRequestLatencyMs();
        StringBuilder sb = new StringBuilder();
        sb.append(new PercentileTable().row("request latency (ms)", new Double[] {d.getP50(), d.getP95(), d.getP99()}, d)
                .render());
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "%-18s%s%n", "inputs/s", num(stats.getInputsPerS()) + " inputs/s"
                + "  (input tokens " + num(stats.getInputTokensPerS()) + " tok/s)"));
        sb.append(String.format(Locale.ROOT, "%-18s%s%n", "requests/s", num(stats.getRequestThroughputRps())
                + " req/s"));
        return sb.toString();
    }

    private static String num(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}

package io.capstream.cli.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.report.ReportView;
import java.util.List;
import java.util.Locale;

/**
 * Renders the readable summary of a typed capacity report (spec §8, §9): run, target, completed and
 * failed counts, the p50/p95 lines of {@link ReportView#SUMMARY_PERCENTILES} (ms, tokens/s, tokens),
 * throughput (tokens/s) and the measurement protocol label, the generator's self-check, then the
 * first failures. Missing values print as {@code -}.
 */
public final class SummaryTable {
    private static final int MAX_FAILURES_SHOWN = 10;

    private SummaryTable() {
    }

    /**
     * @param report the typed report; never null. A chunked report's record has no failure entries
     *     (they are in its artifact): a {@code failures:} line then points to the report file.
     * @param client the generator's self-check of the run ({@code capstream.client}), or null when
     *     there is none (imports, replays)
     * @return the table text, lines ending in {@code \n}
     */
    public static String render(BenchmarkReport report, ClientCheck client) {
        StringBuilder sb = new StringBuilder();
        Metrics m = report.getMetrics();
        line(sb, "run", text(report.getRunId()));
        line(sb, "target", text(report.getBaseUrl()) + "  model " + text(report.getModel())
                + "  engine " + text(report.getEngine()));
        line(sb, "protocol", text(report.getMeasurementProtocol()));
        line(sb, "requests", report.getRequests() + "  completed " + report.getCompleted()
                + "  failed " + zeroIfNull(report.getFailed()) + "  concurrency " + report.getConcurrency());
        line(sb, "wall clock", fmt(report.getWallClockMs(), " ms"));
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "%-26s %14s %14s%n", "metric", "p50", "p95"));
        for (ReportView.PercentileLine p : ReportView.SUMMARY_PERCENTILES) {
            sb.append(String.format(Locale.ROOT, "%-26s %14s %14s%n", p.label(),
                    fmt(ReportView.metric(m, p.p50Field()), ""), fmt(ReportView.metric(m, p.p95Field()), "")));
        }
        sb.append('\n');
        line(sb, "throughput", fmt(m.getThroughputTokS(), " tok/s") + "  (output tokens "
                + text(m.getOutputTokens()) + ")");
        if (m.getPrefixCacheHitAvg() != null) {
            line(sb, "prefix cache hit", String.format(Locale.ROOT, "%.1f %%", m.getPrefixCacheHitAvg() * 100));
        }
        clientCheck(sb, client);
        failures(sb, report);
        return sb.toString();
    }

    private static void failures(StringBuilder sb, BenchmarkReport report) {
        List<FailureEntry> failures = report.getFailures();
        if (failures.isEmpty()) {
            if (report.getArtifactChunks() > 0 && zeroIfNull(report.getFailed()) > 0) {
                sb.append("\nfailures: ").append(report.getFailed()).append(", listed in the report file\n");
            }
            return;
        }
        sb.append("\nfailures:\n");
        int shown = 0;
        for (FailureEntry f : failures) {
            if (shown++ == MAX_FAILURES_SHOWN) {
                sb.append("  ... ").append(failures.size() - MAX_FAILURES_SHOWN).append(" more in the report\n");
                break;
            }
            sb.append(String.format(Locale.ROOT, "  #%-5d %-15s %s%n", f.getRequestIndex(), f.getErrorType(),
                    f.getErrorMessage() == null ? "" : f.getErrorMessage()));
        }
    }

    /**
     * The generator's self-check: event-loop delay, CPU, GC, achieved concurrency, client queueing
     * and warm-up, then one warning line when the client may have distorted the numbers. Nothing
     * when there is no self-check.
     */
    private static void clientCheck(StringBuilder sb, ClientCheck c) {
        if (c == null) {
            return;
        }
        line(sb, "client check", String.format(Locale.ROOT, "loop delay p50 %s / p99 %s / max %s ms, CPU process %s ms,"
                        + " event loops %s ms (%s per 1,000 chunks), GC pauses %d (max %.1f ms)",
                num(c.getDelayP50Ms()), num(c.getDelayP99Ms()), num(c.getDelayMaxMs()),
                num0(c.getCpuProcessMs()), num0(c.getCpuEventLoopsMs()), num(c.getCpuMsPer1000Chunks()),
                c.getGcPauses(), c.getGcPauseMaxMs()));
        line(sb, "", String.format(Locale.ROOT, "achieved concurrency %s (max %d), client queue before t0 p99 %s ms,"
                        + " warm-up %,d loopback + %d target requests, events %s",
                num(c.getInFlightMean()), c.getInFlightMax(), num(c.getQueueP99Ms()),
                c.getWarmupLoopbackRequests(), c.getWarmupTargetRequests(),
                c.getEventDelivery() == null ? "live" : c.getEventDelivery()));
        if (c.getDistorted()) {
            StringBuilder w = new StringBuilder();
            if (c.getWarnings() != null) {
                c.getWarnings().forEach(x -> w.append(w.length() == 0 ? "" : "; ").append(x));
            }
            sb.append("warning: the client may have distorted these numbers: ").append(w).append('\n');
        }
    }

    private static int zeroIfNull(Integer v) {
        return v == null ? 0 : v;
    }

    private static String num(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String num0(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, value));
    }

    private static String fmt(Double v, String unit) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f%s", v, unit);
    }

    private static String text(Object v) {
        return v == null ? "-" : v.toString();
    }
}

package io.capstream.cli.tail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.cli.report.PercentileTable;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.ServerMetricsScrape;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.report.IntervalText;
import io.capstream.schemas.report.ReportView;
import io.capstream.schemas.report.SweepJson;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.apache.avro.specific.SpecificRecord;

/**
 * Renders tailed records: a fixed-width table (times in UTC, latencies in ms, rates in tokens/s,
 * {@code -} for missing values; the report columns are {@link ReportView#TAIL_METRICS}), or JSON (Avro
 * field names; reports print their artifact JSON, sweeps their {@code sweep.json} form, {@link SweepJson}).
 */
public final class TailPrinter {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * Layout of the summaries table: each shown percentile is followed by its 95% confidence interval (issue 32,
     * {@link IntervalText}: {@code [low, high]}, or {@code [n<72]} when the window had too few samples for one);
     * {@code cancel} counts the requests the client cancelled on purpose ({@code --cancel-rate}), which are not in
     * {@code req}.
     */
    private static final String SUMMARY_ROW = "%-20s %-32s %-20s %-9s %6s %5s %6s %6s %9s %-18s %9s %-18s %9s %-18s %9s"
            + " %-18s %8s %-16s %9s %7s";
    /** A report column of a latency percentile, e.g. {@code ttft_p95_ms}: its quantity and percentile. */
    private static final java.util.regex.Pattern LATENCY_PERCENTILE =
            java.util.regex.Pattern.compile("(\\w+)_p(50|95|99)_ms");
    /** Layout of the sweeps table. */
    private static final String SWEEP_ROW = "%-20s %-36s %-11s %-6s %7s %9s %-40s";
    /** Layout of the server-metrics table (the queue and KV-cache series by their common names). */
    private static final String SERVER_ROW = "%-20s %-40s %-32s %8s %8s %8s %8s %6s";
    /** Issue 32: change points. */
    private static final String CHANGE_ROW = "%-20s %-32s %-20s %-9s %-12s %9s %9s %8s %6s %7s";

    private final TailKind kind;
    private final TailFormat format;
    private final PrintStream out;
    private boolean headerPrinted;
    /** The percentiles a printed row showed a {@code [n<M]} marker for (the key line under the table). */
    private final java.util.SortedSet<Integer> marked = new java.util.TreeSet<>();

    /**
     * @param kind   what is printed
     * @param format how
     * @param out    where
     */
    public TailPrinter(TailKind kind, TailFormat format, PrintStream out) {
        this.kind = kind;
        this.format = format;
        this.out = out;
    }

    /**
     * Prints one record (the table header before the first).
     *
     * @param record a value of the printer's kind; not null
     */
    public void print(SpecificRecord record) {
        switch (format) {
            case TABLE -> {
                if (!headerPrinted) {
                    out.println(header());
                    headerPrinted = true;
                }
                out.println(row(record));
            }
            case JSON -> out.println(json(record, true));
            case JSONL -> out.println(json(record, false));
            default -> throw new IllegalStateException();
        }
        out.flush();
    }

    /**
     * Ends the table: the key of the {@code [n<M]} markers its rows showed, the same line as under the run's summary
     * ({@link PercentileTable#markerKey}); nothing when no row showed one, or in the JSON formats.
     */
    public void finish() {
        String key = format == TailFormat.TABLE ? PercentileTable.markerKey(List.copyOf(marked)) : null;
        if (key != null) {
            out.println(key);
            out.flush();
        }
    }

    String header() {
        return switch (kind) {
            case SUMMARIES -> String.format(Locale.ROOT, SUMMARY_ROW, "window_start", "target", "model", "bucket", "req",
                    "fail", "cancel", "err%", "ttft_p50", "95% CI", "ttft_p95", "95% CI", "ttft_p99", "95% CI", "e2e_p95", "95% CI",
                    "itl_p50", "95% CI", "out_tok/s", "goodput");
            case REPORTS -> {
                StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-40s %-20s %-32s %9s %6s",
                        "run_id", "model", "base_url", "completed", "failed"));
                for (ReportView.Column c : ReportView.TAIL_METRICS) {
                    h.append(' ').append(pad(c.header(), c.width()));
                    if (percentileOf(c) != null) {
                        h.append(String.format(Locale.ROOT, " %-18s", "95% CI"));
                    }
                }
                yield h.append(String.format(Locale.ROOT, " %-8s", "kind")).toString();
            }
            case ALERTS -> String.format(Locale.ROOT, "%-20s %-9s %-32s %-20s %-9s %-22s %10s",
                    "window_start", "state", "target", "model", "bucket", "slo", "observed");
            case CHANGES -> String.format(Locale.ROOT, CHANGE_ROW, "change_start", "target", "model", "bucket",
                    "metric", "before", "after", "change", "conf", "windows");
            case SWEEPS -> String.format(Locale.ROOT, SWEEP_ROW, "updated_at", "sweep_id", "axis", "mode", "steps",
                    "max_load", "max_load_run_id");
            case SERVER_METRICS -> String.format(Locale.ROOT, SERVER_ROW, "scraped_at", "run_id", "target", "t_s",
                    "running", "waiting", "kv_cache", "series");
        };
    }

    String row(SpecificRecord record) {
        if (record instanceof WindowSummary s) {
            Quantiles t = s.getTtftMs();
            Quantiles e2e = s.getE2eMs();
            Quantiles itl = s.getItlMs();
            return String.format(Locale.ROOT, SUMMARY_ROW,
                    time(s.getWindowStartMs()), cut(s.getTarget(), 32), cut(s.getModel(), 20), s.getContextBucket(),
                    s.getRequests(), s.getFailed(), s.getCancelled() == null ? 0L : s.getCancelled(), String.format(Locale.ROOT, "%.2f", s.getErrorRate() * 100),
                    num(t == null ? null : t.getP50()), ci(t, 50), num(t == null ? null : t.getP95()), ci(t, 95),
                    num(t == null ? null : t.getP99()), ci(t, 99), num(e2e == null ? null : e2e.getP95()), ci(e2e, 95),
                    num(itl == null ? null : itl.getP50()), ci(itl, 50),
                    String.format(Locale.ROOT, "%.1f", s.getOutputThroughputTokS()),
                    s.getGoodput() == null ? "-" : String.format(Locale.ROOT, "%.3f", s.getGoodput())).stripTrailing();
        }
        if (record instanceof BenchmarkReport r) {
            Metrics m = r.getMetrics();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-40s %-20s %-32s %9s %6s",
                    cut(r.getRunId(), 40), cut(r.getModel(), 20), cut(r.getBaseUrl(), 32),
                    r.getCompleted() + "/" + r.getRequests(), r.getFailed() == null ? "-" : r.getFailed().toString()));
            for (ReportView.Column c : ReportView.TAIL_METRICS) {
                line.append(' ').append(pad(num(ReportView.metric(m, c.field())), c.width()));
                String[] pct = percentileOf(c);
                if (pct != null) {
                    var d = ReportView.distribution(r.getStatistics(), pct[0]);
                    int p = Integer.parseInt(pct[1]);
                    String ci = d == null ? "" : IntervalText.bracket(p == 50 ? d.getP50Ci() : p == 95 ? d.getP95Ci()
                            : d.getP99Ci(), IntervalText.reason(d.getCiUnavailable(), p), "%.1f");
                    line.append(String.format(Locale.ROOT, " %-18s", ci.isEmpty() ? "-" : mark(ci, p)));
                }
            }
            return line.append(String.format(Locale.ROOT, " %-8s",
                    r.getProvenance() == null ? "-" : r.getProvenance().getKind().name().toLowerCase(Locale.ROOT)))
                    .toString();
        }
        if (record instanceof SweepCurve c) {
            return sweepRow(c);
        }
        if (record instanceof ServerMetricsScrape m) {
            return String.format(Locale.ROOT, SERVER_ROW, time(m.getScrapedAtEpochMs()), cut(m.getRunId() == null ? "-"
                    : m.getRunId(), 40), cut(m.getTarget(), 32), seconds(m.getTMs()), num(m.getSamples().get("requests_running")),
                    num(m.getSamples().get("requests_waiting")), num(m.getSamples().get("kv_cache_usage")),
                    m.getSamples().size());
        }
        if (record instanceof ChangePoint c) {
            return String.format(Locale.ROOT, CHANGE_ROW, time(c.getChangeWindowStartMs()), cut(c.getTarget(), 32),
                    cut(c.getModel(), 20), c.getContextBucket(), c.getMetric(), num(c.getBefore()), num(c.getAfter()),
                    String.format(Locale.ROOT, "%+.1f%%", c.getRelativeChange() * 100),
                    String.format(Locale.ROOT, "%.3f", c.getConfidence()), c.getAfterWindows());
        }
        SloBreach a = (SloBreach) record;
        return String.format(Locale.ROOT, "%-20s %-9s %-32s %-20s %-9s %-22s %10s", time(a.getWindowStartMs()),
                a.getState(), cut(a.getTarget(), 32), cut(a.getModel(), 20), a.getContextBucket(), cut(a.getSlo(), 22),
                observed(a.getObserved()));
    }

    /**
     * @return for a report column of a latency percentile ({@code ttft_p95_ms}): its statistics Distribution and
     *         percentile ({@code ttft_ms}, {@code 95}), whose 95% interval is printed beside it; null for other columns
     */
    private static String[] percentileOf(ReportView.Column c) {
        java.util.regex.Matcher m = LATENCY_PERCENTILE.matcher(c.field());
        return m.matches() ? new String[] {m.group(1) + "_ms", m.group(2)} : null;
    }

    /** @return {@code ci}, the percentile noted when it is a {@code [n<M]} marker */
    private String mark(String ci, int percentile) {
        if (ci.startsWith("[n<")) {
            marked.add(percentile);
        }
        return ci;
    }

    /** @return the interval of a window percentile, {@code [n<72]} without one, {@code -} without the quantity */
    private String ci(Quantiles q, int percentile) {
        if (q == null) {
            return "-";
        }
        String text = IntervalText.bracket(switch (percentile) {
            case 50 -> q.getP50Ci();
            case 95 -> q.getP95Ci();
            default -> q.getP99Ci();
        }, IntervalText.reason(q.getCiUnavailable(), percentile), "%.1f");
        return text.isEmpty() ? "-" : mark(text, percentile);
    }

    String json(SpecificRecord record, boolean pretty) {
        if (record instanceof SweepCurve c) {
            ObjectNode node = SweepJson.toJson(c);
            try {
                return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node)
                        : MAPPER.writeValueAsString(node);
            } catch (java.io.IOException e) {
                return c.toString();
            }
        }
        // a large report's artifact is on capstream.reports.chunks: its report record (typed summary) is printed
        String text = record instanceof BenchmarkReport r && r.getArtifactChunks() == 0 ? r.getArtifactJson()
                : record.toString();
        try {
            JsonNode node = MAPPER.readTree(text);
            return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node)
                    : MAPPER.writeValueAsString(node);
        } catch (java.io.IOException e) {
            return text;
        }
    }

    /**
     * One line per curve update: when, which sweep, its axis and mode, steps done (of planned, for a
     * grid), and the max load meeting the SLOs (slots as an integer, req/s with 2 decimals; {@code -}
     * when none; {@code >=} before it when it is only a lower bound, {@code max_load_lower_bound}) with its run id.
     */
    private static String sweepRow(SweepCurve c) {
        int done = c.getPoints().size();
        String steps = c.getStepsPlanned() == null ? Integer.toString(done) : done + "/" + c.getStepsPlanned();
        Double max = c.getMaxLoadMeetingSlos();
        String load = max == null ? "-" : (c.getMaxLoadLowerBound() ? ">=" : "") + ("concurrency".equals(c.getAxis())
                ? Long.toString(Math.round(max)) : String.format(Locale.ROOT, "%.2f", max));
        return String.format(Locale.ROOT, SWEEP_ROW, time(c.getUpdatedAtMs()), cut(c.getSweepId(), 36),
                cut(c.getAxis(), 11), cut(c.getMode(), 6), steps, load, cut(c.getMaxLoadRunId(), 40));
    }

    private static String time(long epochMs) {
        return TIME.format(Instant.ofEpochMilli(epochMs));
    }

    /**
     * @param tMs ms after the run's T0 (negative before it: the baseline scrape), or null outside a run
     * @return seconds with one decimal, {@code -} for null; {@code 0.0} for a time that rounds to zero from below
     *         (the baseline scrape a few ms before T0 printed {@code -0.0}), so only a time at least 0.05 s before T0
     *         shows its minus sign
     */
    static String seconds(Double tMs) {
        return num(tMs == null ? null : tMs / 1000);
    }

    /** @return {@code v} with one decimal, {@code -} for null; {@code 0.0}, never {@code -0.0}, for what rounds to zero */
    private static String num(Double v) {
        if (v == null) {
            return "-";
        }
        String s = String.format(Locale.ROOT, "%.1f", v);
        return "-0.0".equals(s) ? "0.0" : s;
    }

    /**
     * @param v an alert's observed value (a rate such as 0.004 or a latency in ms), or null
     * @return {@code -} for null; one decimal from 100 up ({@code 412.4}); below, 3 significant digits without trailing
     *         zeros ({@code 0.25}, {@code 0.004}, {@code 12.3}), so a rate compared with {@code error_rate<=0.01} is not
     *         rounded to {@code 0.3} or {@code 0.0}
     */
    static String observed(Double v) {
        if (v == null || v.isNaN() || v.isInfinite()) {
            return v == null ? "-" : String.valueOf(v);
        }
        if (Math.abs(v) >= 100) {
            return num(v);
        }
        if (v == 0) {
            return "0";
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Right-aligns {@code s} in {@code width} characters, like {@code %<width>s}. */
    private static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    private static String cut(String s, int width) {
        return s == null ? "-" : s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }
}

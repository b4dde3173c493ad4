package io.capstream.cli.compare;

import io.capstream.cli.compare.RunComparison.MetricChange;
import io.capstream.cli.compare.RunComparison.Verdict;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console text of a {@link RunComparison} ({@code capstream compare}): the two runs, the threshold within
 * which a change is "same", one aligned line per metric (name, unit, A, B, B - A with its sign, the relative change
 * such as {@code +12.3%}, and {@code better}, {@code worse} or {@code same}), then the workload differences (or
 * {@code workload: same}). A missing value prints as {@code -}. Stateless.
 */
public final class CompareTable {
    private static final String ROW = "%-24s %-6s %12s %12s %12s %9s  %s%n";
    private static final String ROW_NOISE = "%-24s %-6s %12s %12s %12s %9s  %-22s %s%n";

    private CompareTable() {
    }

    /**
     * @param c       the comparison; not null
     * @param sourceA where A came from (file or run id), shown after its run id
     * @param sourceB where B came from
     * @return the text, lines ending in {@code \n}
     */
    public static String render(RunComparison c, String sourceA, String sourceB) {
        StringBuilder sb = new StringBuilder();
        sb.append("A  ").append(text(c.runA())).append(source(c.runA(), sourceA)).append('\n');
        sb.append("B  ").append(text(c.runB())).append(source(c.runB(), sourceB)).append('\n');
        sb.append(thresholdLine(c.threshold())).append('\n');
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, ROW, "metric", "unit", "A", "B", "B-A", "change", "").stripTrailing())
                .append('\n');
        for (MetricChange m : c.metrics()) {
            sb.append(line(m));
        }
        workload(c, sb);
        return sb.toString();
    }

    /** Appends the blank line and the workload differences (or {@code workload: same}). */
    private static void workload(RunComparison c, StringBuilder sb) {
        sb.append('\n');
        if (c.workload().isEmpty()) {
            sb.append("workload: same\n");
        } else {
            sb.append("workload differences:\n");
            int width = c.workload().stream().mapToInt(w -> w.key().length()).max().orElse(0);
            for (WorkloadDifference w : c.workload()) {
                sb.append(String.format(Locale.ROOT, "  %-" + width + "s  A %s  B %s%n", w.key(), value(w.a()),
                        value(w.b())));
            }
        }
    }

    /**
     * The table with the noise-aware columns (issue 32): after the relative change, the 95% interval of B - A and
     * the verdict ({@code regression}, {@code improvement}, {@code within noise}); a row without an interval shows
     * {@code -} there and its {@code --threshold} verdict marked {@code (threshold)}, and the reasons follow the
     * table, one line per reason with the metrics it applies to.
     *
     * @param c       the comparison; not null
     * @param v       its verdicts ({@link NoiseVerdicts#of}); not null
     * @param sourceA where A came from (file or run id), shown after its run id
     * @param sourceB where B came from
     * @return the text, lines ending in {@code \n}
     */
    public static String render(RunComparison c, NoiseVerdicts v, String sourceA, String sourceB) {
        StringBuilder sb = new StringBuilder();
        sb.append("A  ").append(text(c.runA())).append(source(c.runA(), sourceA)).append('\n');
        sb.append("B  ").append(text(c.runB())).append(source(c.runB(), sourceB)).append('\n');
        sb.append("verdict: \"regression\" or \"improvement\" when the whole 95% interval of B-A (bootstrap over both"
                + " runs' requests) is on one side of 0, else \"within noise\"\n");
        sb.append(String.format(Locale.ROOT, "rows without an interval: changes within +/-%.1f %% of A are \"same\""
                + " (--threshold)%n", c.threshold() * 100));
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, ROW_NOISE, "metric", "unit", "A", "B", "B-A", "change",
                "95% interval of B-A", "verdict").stripTrailing()).append('\n');
        Map<String, List<String>> reasons = new LinkedHashMap<>();
        for (NoiseVerdicts.Row r : v.rows()) {
            MetricChange m = r.change();
            String fmt = m.unit().format();
            String interval = r.low() == null ? "-" : "[" + signed(fmt, r.low()) + ", " + signed(fmt, r.high()) + "]";
            String verdict = r.verdict() != null ? r.verdict().label()
                    : m.verdict() == null ? "" : verdict(m.verdict()) + " (threshold)";
            sb.append(String.format(Locale.ROOT, ROW_NOISE, m.name(), m.unit().label(), value(fmt, m.a()),
                    value(fmt, m.b()), signed(fmt, m.absolute()), percent(m.relative()), interval, verdict)
                    .stripTrailing()).append('\n');
            if (r.reason() != null && m.direction() != RunComparison.Direction.NEITHER) {
                reasons.computeIfAbsent(r.reason(), k -> new java.util.ArrayList<>()).add(m.name());
            }
        }
        if (!reasons.isEmpty()) {
            sb.append('\n').append("no interval:\n");
            reasons.forEach((reason, names) -> sb.append("  ").append(String.join(", ", names)).append(": ")
                    .append(reason).append('\n'));
        }
        workload(c, sb);
        return sb.toString();
    }

    /** @return one metric's line, e.g. {@code TTFT p95  ms  212.4  230.0  +17.6  +8.3%  worse} */
    static String line(MetricChange m) {
        String fmt = m.unit().format();
        return String.format(Locale.ROOT, ROW, m.name(), m.unit().label(), value(fmt, m.a()), value(fmt, m.b()),
                signed(fmt, m.absolute()), percent(m.relative()), verdict(m.verdict())).stripTrailing() + "\n";
    }

    /**
     * @param threshold the comparison's threshold, a fraction
     * @return the line that says how the verdicts were made, e.g.
     *     {@code changes within +/-5.0 % of A are "same" (--threshold; single runs have no confidence intervals)}
     */
    static String thresholdLine(double threshold) {
        return String.format(Locale.ROOT, "changes within +/-%.1f %% of A are \"same\" (--threshold; single runs"
                + " have no"
                + " confidence intervals)", threshold * 100);
    }

    /** @return the value in the pattern, or {@code -} */
    static String value(String fmt, Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, fmt, v);
    }

    /** @return the value with its sign ({@code +6.8}, {@code -0.5}, {@code 0.0}), or {@code -} */
    static String signed(String fmt, Double v) {
        if (v == null) {
            return "-";
        }
        String s = String.format(Locale.ROOT, fmt, v);
        if (s.matches("-?0(\\.0*)?")) {
            return s.startsWith("-") ? s.substring(1) : s; // a change that prints as 0 has no sign
        }
        return v > 0 ? "+" + s : s;
    }

    /** @return a relative change as a percentage with its sign, e.g. {@code +12.3%}, or {@code -} */
    static String percent(Double relative) {
        return relative == null ? "-" : signed("%.1f", relative * 100) + "%";
    }

    private static String verdict(Verdict v) {
        return v == null ? "" : v == Verdict.UNCHANGED ? "same" : v.name().toLowerCase(Locale.ROOT);
    }

    private static String source(String runId, String source) {
        return source == null || source.equals(runId) ? "" : "  (" + source + ")";
    }

    /**
     * @param s a workload value, or null
     * @return it as is on one line; quoted with JSON escapes when it holds a control character (a prompt salt's
     *     newline) or starts or ends with a space, e.g. {@code "# run 3f9a1c2b7d4e\n"}; {@code -} for null
     */
    static String value(String s) {
        if (s == null || (s.chars().noneMatch(Character::isISOControl) && s.strip().equals(s))) {
            return text(s);
        }
        return '"' + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }

    private static String text(String s) {
        return s == null ? "-" : s;
    }
}

package io.capstream.cli.compare;

import io.capstream.cli.compare.RunComparison.MetricChange;
import io.capstream.cli.compare.RunComparison.Verdict;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;
import java.util.Locale;

/**
 * The console text of a {@link RunComparison} ({@code capstream compare}): the two runs, the threshold within
 * which a change is "same", one aligned line per metric (name, unit, A, B, B - A with its sign, the relative change
 * such as {@code +12.3%}, and {@code better}, {@code worse} or {@code same}), then the workload differences (or
 * {@code workload: same}). A missing value prints as {@code -}. Stateless.
 */
public final class CompareTable {
    private static final String ROW = "%-24s %-6s %12s %12s %12s %9s  %s%n";

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
        sb.append('\n');
        if (c.workload().isEmpty()) {
            sb.append("workload: same\n");
        } else {
            sb.append("workload differences:\n");
            int width = c.workload().stream().mapToInt(w -> w.key().length()).max().orElse(0);
            for (WorkloadDifference w : c.workload()) {
                sb.append(String.format(Locale.ROOT, "  %-" + width + "s  A %s  B %s%n", w.key(), text(w.a()),
                        text(w.b())));
            }
        }
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

    private static String text(String s) {
        return s == null ? "-" : s;
    }
}

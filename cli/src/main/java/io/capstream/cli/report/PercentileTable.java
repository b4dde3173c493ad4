package io.capstream.cli.report;

import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.report.IntervalText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The summary's p50/p95/p99 table with each percentile's 95% confidence interval beside it (issue 32): a value
 * column right-aligned in 14 characters (one decimal, {@code -} when missing), then, when any row of that column has
 * one, the interval from the report's {@code capstream.statistics} Distribution ({@link IntervalText}, e.g.
 * {@code 2135.6 [1950.1, 2385.2]}, or {@code 904.5 [n<72]} when the run had too few values for one), left-aligned
 * and padded to the column's widest. A table without any interval (rows without a Distribution, reports from
 * before intervals) prints exactly as before. When a {@code [n<M]} marker is shown, a key line follows the rows
 * ({@link #markerKey}). Not thread-safe; one per table.
 */
public final class PercentileTable {
    private static final int[] PERCENTILES = {50, 95, 99};
    private final List<String> labels = new ArrayList<>();
    private final List<String[]> values = new ArrayList<>();
    private final List<String[]> intervals = new ArrayList<>();

    /**
     * Adds a row.
     *
     * @param label  the row's label, e.g. {@code TTFT (ms)}
     * @param points the p50, p95 and p99 shown (each may be null)
     * @param d      the Distribution whose intervals go beside them, or null for none
     * @return this
     */
    PercentileTable row(String label, Double[] points, Distribution d) {
        labels.add(label);
        String[] v = new String[PERCENTILES.length];
        String[] ci = new String[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            v[i] = points[i] == null ? "-" : String.format(Locale.ROOT, "%.1f", points[i]);
            ci[i] = d == null || points[i] == null ? "" : IntervalText.bracket(interval(d, PERCENTILES[i]),
                    IntervalText.reason(d.getCiUnavailable(), PERCENTILES[i]), "%.1f");
        }
        values.add(v);
        intervals.add(ci);
        return this;
    }

    /** @return the header line and one line per row, each ending in a line separator */
    String render() {
        int[] width = new int[PERCENTILES.length];
        for (String[] ci : intervals) {
            for (int i = 0; i < ci.length; i++) {
                width[i] = Math.max(width[i], ci[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, "metric", new String[] {"p50", "p95", "p99"}, new String[] {"", "", ""}, width);
        for (int r = 0; r < labels.size(); r++) {
            line(sb, labels.get(r), values.get(r), intervals.get(r), width);
        }
        String key = markerKey(markedPercentiles());
        if (key != null) {
            sb.append(key).append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** @return the percentiles (of {@link #PERCENTILES}, in order) that some row shows a {@code [n<M]} marker for */
    private List<Integer> markedPercentiles() {
        List<Integer> marked = new ArrayList<>();
        for (int i = 0; i < PERCENTILES.length; i++) {
            for (String[] ci : intervals) {
                if (ci[i].startsWith("[n<")) {
                    marked.add(PERCENTILES[i]);
                    break;
                }
            }
        }
        return marked;
    }

    /**
     * The key of the {@code [n<M]} marker, with the smallest sample for a 95% interval of each marked percentile
     * ({@link QuantileInterval#minimumSample}), e.g. {@code [n<M]: too few values for a 95% interval of that
     * percentile (72 needed for p95, 368 for p99)}.
     *
     * @param percentiles the marked percentiles, e.g. {@code [95, 99]}; not null
     * @return the line without line separator, or null when the list is empty
     */
    public static String markerKey(List<Integer> percentiles) {
        if (percentiles.isEmpty()) {
            return null;
        }
        StringBuilder needed = new StringBuilder();
        for (int p : percentiles) {
            long n = QuantileInterval.minimumSample(p / 100.0, QuantileInterval.DEFAULT_LEVEL);
            needed.append(needed.length() == 0 ? n + " needed for p" + p : ", " + n + " for p" + p);
        }
        return String.format(Locale.ROOT, "[n<M]: too few values for a %d%% interval of that percentile (%s)",
                Math.round(QuantileInterval.DEFAULT_LEVEL * 100), needed);
    }

    private static void line(StringBuilder sb, String label, String[] v, String[] ci, int[] width) {
        StringBuilder l = new StringBuilder(String.format(Locale.ROOT, "%-26s", label));
        for (int i = 0; i < v.length; i++) {
            l.append(String.format(Locale.ROOT, " %14s", v[i]));
            if (width[i] > 0) {
                l.append(' ').append(String.format(Locale.ROOT, "%-" + width[i] + "s", ci[i]));
            }
        }
        sb.append(l.toString().stripTrailing()).append(System.lineSeparator());
    }

    private static List<Double> interval(Distribution d, int percentile) {
        return switch (percentile) {
            case 50 -> d.getP50Ci();
            case 95 -> d.getP95Ci();
            case 99 -> d.getP99Ci();
            default -> throw new IllegalArgumentException("p" + percentile);
        };
    }
}

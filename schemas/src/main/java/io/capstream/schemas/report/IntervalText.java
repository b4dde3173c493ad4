package io.capstream.schemas.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a percentile's 95% confidence interval is printed next to it (issue 32), the same in the console summary,
 * {@code tail}, the HTML pages: {@code [402.1, 470.3]} (the interval's ends, in the percentile's unit), or, when the
 * sample was too small for one, a short marker with the smallest sample that has one: {@code [n<72]}. The
 * intervals are a report Distribution's {@code pNN_ci} and a window Quantiles' {@code pNN_ci}; the reasons their
 * {@code ci_unavailable}. Stateless.
 */
public final class IntervalText {
    private static final Pattern NEEDS = Pattern.compile("needs at least (\\d+)");

    private IntervalText() {
    }

    /**
     * @param ci     the interval [low, high], or null
     * @param reason why there is none ({@code ci_unavailable}'s entry), or null
     * @param format the format of each end, e.g. {@code "%.1f"}
     * @return {@code [low, high]}; {@code [n<M]} (or {@code [no interval]}) when there is a reason instead; the empty
     *         string when there is neither (a record from before intervals, or an empty quantity)
     */
    public static String bracket(List<Double> ci, String reason, String format) {
        if (ci != null && ci.size() == 2) {
            return "[" + String.format(Locale.ROOT, format, ci.get(0)) + ", "
                    + String.format(Locale.ROOT, format, ci.get(1)) + "]";
        }
        String m = marker(reason);
        return m == null ? "" : "[" + m + "]";
    }

    /**
     * @param reason a {@code ci_unavailable} reason, e.g. "40 values are too few for a 95% interval of p95 (needs at
     *               least 72)", or null
     * @return {@code n<72} for such a reason, {@code no interval} for another one, null for none or "no values"
     */
    public static String marker(String reason) {
        if (reason == null || reason.equals("no values")) {
            return null;
        }
        Matcher m = NEEDS.matcher(reason);
        return m.find() ? "n<" + m.group(1) : "no interval";
    }

    /**
     * @param unavailable a record's {@code ci_unavailable}, or null
     * @param percentile  e.g. 95
     * @return the reason for {@code p95}, or null
     */
    public static String reason(Map<String, String> unavailable, int percentile) {
        return unavailable == null ? null : unavailable.get("p" + percentile);
    }
}

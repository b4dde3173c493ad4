package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.report.IntervalText;
import java.util.Locale;

/** Number and value formatting for page tables: stateless. */
final class Fmt {
    private Fmt() {
    }

    /**
     * @param v a JSON value
     * @return "" for missing/null, whole numbers with thousands separators, other numbers with 1 decimal
     *     from 100 on, 2 decimals from 1 on, else 3 significant digits; text as is, anything else as JSON
     */
    static String value(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "";
        }
        if (v.isIntegralNumber()) {
            return String.format(Locale.ROOT, "%,d", v.longValue());
        }
        if (v.isNumber()) {
            return number(v.doubleValue());
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        return v.toString();
    }

    /**
     * @param d a value
     * @return "" for NaN, else a readable rounding (see {@link #value})
     */
    static String number(double d) {
        if (!Double.isFinite(d)) {
            return "";
        }
        double a = Math.abs(d);
        if (d == Math.rint(d) && a < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) d);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.1f", d);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", d);
        }
        if (a == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, "%.3g", d);
    }

    /**
     * @param v a JSON number (0..1)
     * @return it as a percentage with one decimal, "" when not a number
     */
    static String percent(JsonNode v) {
        return v != null && v.isNumber() ? String.format(Locale.ROOT, "%.1f%%", v.doubleValue() * 100) : "";
    }

    /**
     * A Distribution's percentile with its 95% confidence interval (issue 32), e.g. {@code 1,464.3 [1,046.3 – 2,164.0]},
     * {@code 157.2 [n<72]} when the run had too few values for one ({@link IntervalText#marker}), or the value alone
     * when the report has neither (reports from before intervals).
     *
     * @param d   a {@code capstream.statistics} Distribution
     * @param pct the percentile's key, e.g. {@code p95}
     * @return the cell text; "" when the percentile is missing
     */
    static String percentile(JsonNode d, String pct) {
        String v = value(d.get(pct));
        if (v.isEmpty()) {
            return v;
        }
        JsonNode ci = d.get(pct + "_ci");
        if (ci != null && ci.isArray() && ci.size() == 2) {
            return v + " [" + number(ci.get(0).doubleValue()) + " – " + number(ci.get(1).doubleValue()) + "]";
        }
        String marker = IntervalText.marker(d.path("ci_unavailable").path(pct).textValue());
        return marker == null ? v : v + " [" + marker + "]";
    }
}

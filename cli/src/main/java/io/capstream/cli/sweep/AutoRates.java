package io.capstream.cli.sweep;

import java.util.ArrayList;
import java.util.List;

/**
 * The rates of {@code sweep --rate auto} (issue 30), as GuideLLM's sweep profile chooses them
 * ({@code guidellm/benchmark/profiles/sweep.py}, {@code SweepProfile.next_strategy}): a synchronous step (one request
 * at a time) measures the lowest rate, a throughput step (every request it may have in flight at once) the highest,
 * both as completed requests per second of the step's wall clock (GuideLLM: {@code request_throughput.successful.mean});
 * then the rates are {@code linspace(synchronous, throughput, N + 1)[1:]}: N rates evenly spaced above the
 * synchronous rate, the last one the throughput rate (GuideLLM's {@code sweep_size} counts the two probes too, so
 * its default 10 is N = 8 here). Rates &lt;= 0 end the list, as there. Pure function.
 */
public final class AutoRates {
    /** Rates after the two probes when {@code --rate auto} gives no N: GuideLLM's default sweep of 10 minus its 2. */
    public static final int DEFAULT_RATES = 8;

    private AutoRates() {
    }

    /**
     * @param synchronousRps the synchronous step's completed requests/s, or null when it has none
     * @param throughputRps  the throughput step's completed requests/s, or null when it has none
     * @param n              how many rates, &gt;= 1
     * @return the rates, req/s, in order; empty when neither probe measured a rate &gt; 0
     */
    public static List<Double> between(Double synchronousRps, Double throughputRps, int n) {
        double lo = synchronousRps == null || !Double.isFinite(synchronousRps) ? 0 : synchronousRps;
        double hi = throughputRps == null || !Double.isFinite(throughputRps) ? 0 : throughputRps;
        List<Double> out = new ArrayList<>();
        if (lo <= 0 && hi <= 0) {
            return out;
        }
        for (int i = 1; i <= n; i++) {
            double r = lo + (hi - lo) * i / n;
            if (!(r > 0)) {
                break;
            }
            out.add(round(r));
        }
        return out;
    }

    /** @return r rounded to 4 significant digits (a readable rate; the probes measure no finer) */
    static double round(double r) {
        return new java.math.BigDecimal(r).round(new java.math.MathContext(4)).doubleValue();
    }

    /**
     * @param text the value of {@code --rate}
     * @return whether it asks for auto rates ({@code auto} or {@code auto:N}, any case)
     */
    public static boolean isAuto(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
        return t.equals("auto") || t.startsWith("auto:");
    }

    /**
     * @param text     {@code auto} or {@code auto:N}
     * @param maxSteps the largest N
     * @return N
     * @throws IllegalArgumentException with a one-line message when N is not a whole number in 1..maxSteps
     */
    public static int parseCount(String text, int maxSteps) {
        String t = text.trim();
        if (t.length() == 4) {
            return DEFAULT_RATES;
        }
        String n = t.substring(5).trim();
        try {
            int v = Integer.parseInt(n);
            if (v >= 1 && v <= maxSteps) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--rate auto:N needs N, the rates between the synchronous and the"
                + " throughput step, a whole number 1.." + maxSteps + ", got '" + n + "'");
    }
}

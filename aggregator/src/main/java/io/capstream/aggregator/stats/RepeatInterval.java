package io.capstream.aggregator.stats;

import java.util.Locale;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * The mean of one metric over N repeats of the same step (issue 32, {@code sweep --repeat N}) with its Student-t
 * confidence interval, {@code mean ± t(N-1, 1-α/2) · s / √N} (s the sample standard deviation; the t quantile from
 * Hipparchus), and the coefficient of variation {@code s / mean}; and the decision of an SLO by that interval
 * ({@link #decide}). The repeats are taken as independent draws of the step's value (each a whole run, e.g. its
 * TTFT p95), so the interval is about the step's typical value, not about one request.
 *
 * @param n    the number of repeats, &ge; 1
 * @param mean their mean
 * @param low  the interval's lower end; NaN for a single repeat (no spread to measure)
 * @param high its upper end; NaN for a single repeat
 * @param cv   the coefficient of variation s / |mean|, NaN for a single repeat or a mean of 0
 */
public record RepeatInterval(int n, double mean, double low, double high, double cv) {
    /** How an SLO fares against the interval of a step's repeats. */
    public enum SloSide {
        /** The whole interval is on the good side of the threshold: the step meets the SLO. */
        MET,
        /** The whole interval is on the bad side: the step misses the SLO. */
        MISSED,
        /** The interval contains the threshold (or there is no interval): the repeats cannot tell; not a pass. */
        STRADDLES
    }

    /**
     * @param values the repeats' values (none NaN), at least one; not null
     * @param level  confidence level, in (0, 1), e.g. 0.95
     * @return their mean, interval and CV
     * @throws IllegalArgumentException for no values, a NaN value or a level outside (0, 1)
     */
    public static RepeatInterval of(double[] values, double level) {
        if (values.length == 0 || !(level > 0 && level < 1)) {
            throw new IllegalArgumentException("need at least one value and 0 < level < 1, got " + values.length
                    + " values, level " + level);
        }
        double sum = 0;
        for (double v : values) {
            if (Double.isNaN(v)) {
                throw new IllegalArgumentException("values must not be NaN");
            }
            sum += v;
        }
        int n = values.length;
        double mean = sum / n;
        if (n == 1) {
            return new RepeatInterval(1, mean, Double.NaN, Double.NaN, Double.NaN);
        }
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(squares / (n - 1));
        double half = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - level) / 2) * sd / Math.sqrt(n);
        return new RepeatInterval(n, mean, mean - half, mean + half, mean == 0 ? Double.NaN : sd / Math.abs(mean));
    }

    /** @return whether there is an interval (two repeats or more) */
    public boolean hasInterval() {
        return n > 1;
    }

    /**
     * Decides an SLO by the interval, not the mean.
     *
     * @param met whether a value meets the SLO, e.g. {@code v -> v <= 500} (a one-sided comparison with a threshold,
     *            so that the interval meets it when both ends do); not null
     * @return {@link SloSide#MET} when every value of the interval satisfies the SLO, {@link SloSide#MISSED} when
     *     none does, else (and without an interval) {@link SloSide#STRADDLES}
     */
    public SloSide decide(java.util.function.DoublePredicate met) {
        if (!hasInterval()) {
            return SloSide.STRADDLES;
        }
        boolean lowOk = met.test(low);
        boolean highOk = met.test(high);
        return lowOk && highOk ? SloSide.MET : !lowOk && !highOk ? SloSide.MISSED : SloSide.STRADDLES;
    }

    /** @return e.g. {@code 212.4 [201.0, 223.8] CV 3.1%}, or {@code 212.4 (1 run)} */
    public String text() {
        if (!hasInterval()) {
            return String.format(Locale.ROOT, "%.1f (1 run)", mean);
        }
        return String.format(Locale.ROOT, "%.1f [%.1f, %.1f] CV %s", mean, low, high,
                Double.isNaN(cv) ? "-" : String.format(Locale.ROOT, "%.1f%%", cv * 100));
    }
}

package io.capstream.aggregator.stats;

/**
 * What an interval of a difference B&nbsp;&minus;&nbsp;A says about B (issue 32, noise-aware comparisons): a
 * {@link #REGRESSION} when the whole interval lies on the metric's worse side (beyond an optional margin), an
 * {@link #IMPROVEMENT} when it lies wholly on the better side, and {@link #WITHIN_NOISE} when it reaches both sides
 * (or into the margin): the data cannot tell B from A.
 */
public enum ChangeVerdict {
    /** B is worse than A, beyond what chance explains at the interval's level. */
    REGRESSION("regression"),
    /** B is better than A, beyond what chance explains. */
    IMPROVEMENT("improvement"),
    /** The difference is within what repeating the same run moves the metric by. */
    WITHIN_NOISE("within noise");

    private final String label;

    ChangeVerdict(String label) {
        this.label = label;
    }

    /** @return the verdict as printed and in JSON: {@code regression}, {@code improvement} or {@code within noise} */
    public String label() {
        return label;
    }

    /**
     * Judges an interval of B - A.
     *
     * @param low           the interval's lower end (metric unit)
     * @param high          its upper end, &ge; low
     * @param higherIsWorse true for latencies and error rates, false for throughputs and rates
     * @param margin        how far beyond 0 the whole interval must lie, in the metric's unit, &ge; 0 (0: any
     *                      change that chance does not explain)
     * @return the verdict
     * @throws IllegalArgumentException when an end is NaN, low &gt; high, or the margin is negative or NaN
     */
    public static ChangeVerdict of(double low, double high, boolean higherIsWorse, double margin) {
        if (Double.isNaN(low) || Double.isNaN(high) || low > high || !(margin >= 0)) {
            throw new IllegalArgumentException("need low <= high and margin >= 0, got [" + low + ", " + high
                    + "] margin " + margin);
        }
        boolean wholeAbove = low > margin;
        boolean wholeBelow = high < -margin;
        if (!wholeAbove && !wholeBelow) {
            return WITHIN_NOISE;
        }
        return wholeAbove == higherIsWorse ? REGRESSION : IMPROVEMENT;
    }
}

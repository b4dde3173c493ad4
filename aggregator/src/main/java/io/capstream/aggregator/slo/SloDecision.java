package io.capstream.aggregator.slo;

import java.util.Locale;

/**
 * How a window decides an SLO's state (issue 32).
 * <ul>
 *   <li>{@link Mode#INTERVAL} (the default): a window breaches only when the 95% interval of the observed value
 *       (the window's {@code pNN_ci} for a percentile SLO, the Wilson interval of the proportion for
 *       {@code error_rate} and {@code goodput}) lies wholly on the wrong side of the threshold, and recovers only when
 *       it lies wholly on the right side; in between, and in a window without an interval (too few samples: a p95
 *       interval needs 72 values, a p99 one 368), the state holds. {@code output_throughput_tok_s} has no interval
 *       and is decided on its point value.</li>
 *   <li>{@link Mode#POINT}: the point estimate decides, but only in a window with at least {@code minSamples}
 *       samples (values of the quantity, or requests); smaller windows leave the state as it is.</li>
 * </ul>
 *
 * @param mode       interval or point; not null
 * @param minSamples fewest samples a window needs to change the state under {@link Mode#POINT} (&ge; 1); ignored
 *                   under {@link Mode#INTERVAL} except for {@code output_throughput_tok_s}
 */
public record SloDecision(Mode mode, long minSamples) {
    /** Default {@code --slo-min-samples}: a point p95 of 30 values is the second largest of them. */
    public static final long DEFAULT_MIN_SAMPLES = 30;

    /** Decision modes. */
    public enum Mode {
        /** The 95% interval lies wholly on one side of the threshold. */
        INTERVAL,
        /** The point estimate, from at least minSamples samples. */
        POINT;

        /** @return the lower-case name used on the command line and in alerts */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Validates. */
    public SloDecision {
        java.util.Objects.requireNonNull(mode, "mode");
        if (minSamples < 1) {
            throw new IllegalArgumentException("minimum samples must be >= 1, got " + minSamples);
        }
    }

    /** @return interval decisions (the default) */
    public static SloDecision interval() {
        return new SloDecision(Mode.INTERVAL, DEFAULT_MIN_SAMPLES);
    }

    /**
     * @param minSamples fewest samples a deciding window needs, &ge; 1
     * @return point decisions
     */
    public static SloDecision point(long minSamples) {
        return new SloDecision(Mode.POINT, minSamples);
    }

    /**
     * @param text       {@code interval} or {@code point} (any case); not null
     * @param minSamples minimum samples for point decisions
     * @return the decision
     * @throws IllegalArgumentException naming the accepted values
     */
    public static SloDecision parse(String text, long minSamples) {
        for (Mode m : Mode.values()) {
            if (m.label().equalsIgnoreCase(text.trim())) {
                return new SloDecision(m, minSamples);
            }
        }
        throw new IllegalArgumentException("unknown SLO decision '" + text + "': expected interval or point");
    }
}

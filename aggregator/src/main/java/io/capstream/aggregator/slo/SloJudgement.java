package io.capstream.aggregator.slo;

import java.util.List;

/**
 * What one closed window says about one SLO ({@link SloJudge}).
 *
 * @param verdict  met, violated, or undecided (the state holds); not null
 * @param observed the point value in the window (metric's unit), or null when the window has none
 * @param interval the 95% interval [low, high] that decided it under interval decisions, else null
 * @param samples  samples behind the value (values of the quantity, or requests); 0 when none
 */
public record SloJudgement(Verdict verdict, Double observed, List<Double> interval, long samples) {
    /** A window's verdict on an SLO. */
    public enum Verdict {
        /** The SLO is met (under interval decisions: the whole interval is on the right side). */
        MET,
        /** The SLO is violated (under interval decisions: the whole interval is on the wrong side). */
        VIOLATED,
        /** The window cannot tell (no value, too few samples, or the interval straddles the threshold). */
        UNDECIDED
    }

    /** Copies the interval. */
    public SloJudgement {
        java.util.Objects.requireNonNull(verdict, "verdict");
        interval = interval == null ? null : List.copyOf(interval);
    }
}

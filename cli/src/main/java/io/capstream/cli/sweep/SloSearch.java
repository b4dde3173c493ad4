package io.capstream.cli.sweep;

import io.capstream.aggregator.slo.Comparison;
import io.capstream.aggregator.slo.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The SLO search of {@code capstream sweep --search concurrency|rate}: finds the largest load whose
 * step meets every SLO (issue 12, part 2). Pure: the steps are run by a {@link Trial} given to
 * {@link #run}.
 *
 * <ol>
 *   <li><b>Growth</b>: from {@code start}, doubling (capped at {@code max}) until a step misses its
 *       SLOs or {@code max} passes. A first step that misses means no load meets the SLOs.</li>
 *   <li><b>Narrowing</b> of [lo = largest passing load, hi = smallest failing load]: the next probe
 *       is where the worst SLO margin crosses 1 by linear interpolation between lo and hi. A margin
 *       is {@code observed / threshold} for {@code <=}/{@code <} SLOs and {@code threshold / observed}
 *       for {@code >=}/{@code >}; the worst margin is the largest over the SLOs. For a percentile SLO
 *       whose attainment is known (the share of requests meeting its threshold,
 *       {@code SloAttainment.attainment}) the margin is {@code required share / attainment} instead,
 *       the required share being p/100 for {@code <=}/{@code <} and 1 - p/100 for {@code >=}/{@code >}:
 *       the same SLO (a nearest-rank p95 meets a threshold exactly when 95% of the values do), but a
 *       smooth function of the load where the percentile jumps (once requests queue for the engine's
 *       slots, the p95 leaps from 60 ms to 600 ms while the attainment falls gradually). The probe is
 *       safeguarded: concurrency rounded and clamped to [lo + 1, hi - 1]; rate clamped to
 *       [lo + 0.1 (hi - lo), hi - 0.1 (hi - lo)]; the midpoint when a margin is unknown (an observed
 *       value missing) or the margins do not grow from lo to hi. A further safeguard: when a probe
 *       left more than half of its bracket, the next probe is the midpoint, so that a cliff (margins flat,
 *       then a jump, where interpolation keeps landing next to the same end) costs about as many steps as
 *       bisection. Narrowing stops at
 *       {@code hi - lo <= 1} (concurrency) or {@code (hi - lo) / lo <= 10%} (rate).</li>
 *   <li><b>Confirmation</b>: lo runs once more ({@code SweepStep.repeat}). When the repeat misses,
 *       hi = lo, lo = the next lower passing load, and narrowing continues; with no lower passing
 *       load no load meets the SLOs.</li>
 * </ol>
 * At most {@code maxSteps} steps run in all; when they run out before the confirmation the result
 * is the last lo, unconfirmed. On the simulated engine with 8 batch slots and
 * {@code ttft_p95_ms<=300} (32 requests per step) the steps are 1, 2, 4, 8, 16 (missed: a quarter of the
 * requests meet 300 ms), 9 (missed), 8 (repeat): 7 steps.
 */
public final class SloSearch {
    /** Share of [lo, hi] the rate probe keeps away from either end. */
    static final double RATE_GUARD = 0.1;
    /** Relative resolution at which a rate search stops narrowing. */
    static final double RATE_RESOLUTION = 0.10;

    /**
     * @param axis     concurrency (whole slots) or rate (req/s); not null
     * @param start    the first load (&gt; 0; a whole number for concurrency)
     * @param max      the largest load growth tries (&gt;= start)
     * @param maxSteps most steps in all, confirmation included (&gt;= 1)
     */
    public record Settings(LoadAxis axis, double start, double max, int maxSteps) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(axis, "axis");
            if (!(start > 0) || !(max >= start) || maxSteps < 1) {
                throw new IllegalArgumentException("a search needs 0 < start <= max and at least one step");
            }
        }
    }

    /**
     * What one step showed.
     *
     * @param met        whether the step met every SLO (the report's {@code capstream.slo.met_all})
     * @param observed   each SLO's observed value, in the order of the search's SLOs; an entry is null when
     *                   the step had no sample for it
     * @param attainment each SLO's attainment (share of the requests meeting a percentile SLO's threshold,
     *                   0..1), in the same order; an entry is null for run-level SLOs or when unknown
     */
    public record Observation(boolean met, List<Double> observed, List<Double> attainment) {
        /** Copies the lists (nulls kept). */
        public Observation {
            observed = java.util.Collections.unmodifiableList(new ArrayList<>(observed));
            attainment = java.util.Collections.unmodifiableList(new ArrayList<>(attainment));
        }

        /**
         * @param met      whether the step met every SLO
         * @param observed each SLO's observed value (nulls allowed), no attainment known
         */
        public Observation(boolean met, List<Double> observed) {
            this(met, observed, java.util.Collections.nCopies(observed.size(), null));
        }
    }

    /** Runs one step of the search. */
    @FunctionalInterface
    public interface Trial {
        /**
         * @param step   1-based step number
         * @param load   the step's load on the axis
         * @param repeat whether this is the confirmation of the winning load
         * @return what the step showed, or empty when it produced no result (no report, stopped): the
         *         search ends there
         * @throws Exception when the step fails unexpectedly (propagated)
         */
        Optional<Observation> run(int step, double load, boolean repeat) throws Exception;
    }

    /**
     * One step the search ran.
     *
     * @param step        1-based step number
     * @param load        its load
     * @param repeat      the confirmation repeat
     * @param observation what it showed
     */
    public record Probe(int step, double load, boolean repeat, Observation observation) {
    }

    /**
     * How the search ended.
     *
     * @param best      the largest load found to meet the SLOs, or null when none did
     * @param confirmed whether {@code best} passed its confirmation repeat
     * @param aborted   true when a step produced no result (the search ended early)
     * @param probes    the steps run, in order
     */
    public record Outcome(Double best, boolean confirmed, boolean aborted, List<Probe> probes) {
        /** Copies the list. */
        public Outcome {
            probes = List.copyOf(probes);
        }
    }

    private final Settings settings;
    private final List<Slo> slos;

    /**
     * @param settings the search's bounds
     * @param slos     the SLOs every step is evaluated against, in order (for the margins); not empty
     * @throws IllegalArgumentException when {@code slos} is empty
     */
    public SloSearch(Settings settings, List<Slo> slos) {
        this.settings = Objects.requireNonNull(settings, "settings");
        if (slos.isEmpty()) {
            throw new IllegalArgumentException("a search needs at least one SLO");
        }
        this.slos = List.copyOf(slos);
    }

    /**
     * Runs the search to its end.
     *
     * @param trial runs one step
     * @return how it ended
     * @throws Exception what {@code trial} throws
     */
    public Outcome run(Trial trial) throws Exception {
        Run r = new Run(trial);
        return r.search();
    }

    /**
     * @param slo      an SLO
     * @param observed its observed value, or null
     * @return the SLO's margin: observed / threshold ({@code <=}, {@code <}) or threshold / observed
     *         ({@code >=}, {@code >}); above 1 misses; null when unknown (no value, or a zero divisor)
     */
    static Double margin(Slo slo, Double observed) {
        if (observed == null || !Double.isFinite(observed)) {
            return null;
        }
        boolean upper = slo.comparison() == Comparison.LE || slo.comparison() == Comparison.LT;
        double num = upper ? observed : slo.threshold();
        double den = upper ? slo.threshold() : observed;
        return den == 0 ? null : num / den;
    }

    /** Largest margin an attainment gives (an attainment of 0 would give infinity). */
    static final double MAX_ATTAINMENT_MARGIN = 100;

    /**
     * @param slo        a percentile SLO
     * @param attainment the share of requests meeting its threshold (0..1), or null
     * @return required share / attainment (p/100 for {@code <=}/{@code <}, 1 - p/100 for {@code >=}/{@code >}),
     *         at most {@value #MAX_ATTAINMENT_MARGIN}; null for run-level SLOs or an unknown attainment
     */
    static Double attainmentMargin(Slo slo, Double attainment) {
        if (!slo.perRequest() || attainment == null || !Double.isFinite(attainment) || attainment < 0) {
            return null;
        }
        boolean upper = slo.comparison() == Comparison.LE || slo.comparison() == Comparison.LT;
        double required = upper ? slo.percentile() / 100.0 : 1 - slo.percentile() / 100.0;
        return attainment == 0 ? MAX_ATTAINMENT_MARGIN : Math.min(MAX_ATTAINMENT_MARGIN, required / attainment);
    }

    /**
     * @param o a step's observation
     * @return the largest margin over the SLOs (the attainment margin where known, else the observed one),
     *         or null when any is unknown
     */
    Double worstMargin(Observation o) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < slos.size(); i++) {
            Double a = attainmentMargin(slos.get(i), i < o.attainment().size() ? o.attainment().get(i) : null);
            Double m = a != null ? a : margin(slos.get(i), i < o.observed().size() ? o.observed().get(i) : null);
            if (m == null) {
                return null;
            }
            worst = Math.max(worst, m);
        }
        return worst;
    }

    /**
     * The next probe between a passing {@code lo} and a failing {@code hi} (see the class comment).
     *
     * @param lo  largest passing load
     * @param hi  smallest failing load (&gt; lo)
     * @param mLo worst margin at lo, or null
     * @param mHi worst margin at hi, or null
     * @return the load to try next, strictly between lo and hi
     */
    double probe(double lo, double hi, Double mLo, Double mHi) {
        double x = mLo != null && mHi != null && mHi > mLo ? lo + (1 - mLo) * (hi - lo) / (mHi - mLo)
                : (lo + hi) / 2;
        if (settings.axis().integral()) {
            return Math.max(lo + 1, Math.min(hi - 1, Math.round(x)));
        }
        double guard = RATE_GUARD * (hi - lo);
        double clamped = Math.max(lo + guard, Math.min(hi - guard, x));
        double rounded = Math.round(clamped * 1000) / 1000.0;
        return rounded > lo && rounded < hi ? rounded : clamped;
    }

    /**
     * @param lo largest passing load
     * @param hi smallest failing load
     * @return whether [lo, hi] is narrow enough: {@code hi - lo <= 1} slot, or within 10% of lo
     */
    boolean resolved(double lo, double hi) {
        return settings.axis().integral() ? hi - lo <= 1 : (hi - lo) / lo <= RATE_RESOLUTION + 1e-12;
    }

    /** The state of one search. */
    private final class Run {
        private final Trial trial;
        private final List<Probe> probes = new ArrayList<>();
        /** Loads that passed (and were not refuted by a failed repeat), with their worst margins (null unknown). */
        private final TreeMap<Double, Double> passes = new TreeMap<>();
        private Double lo;
        private Double hi;
        private Double mLo;
        private Double mHi;
        /** The last probe left more than half of its bracket: bisect next (the interpolation is stuck on one side). */
        private boolean bisectNext;

        Run(Trial trial) {
            this.trial = trial;
        }

        Outcome search() throws Exception {
            // growth
            double load = settings.axis().integral() ? Math.round(settings.start()) : settings.start();
            while (true) {
                Optional<Observation> o = step(load, false);
                if (o.isEmpty()) {
                    return end(lo, false, true);
                }
                if (!o.get().met()) {
                    if (lo == null) {
                        return end(null, false, false);
                    }
                    hi = load;
                    mHi = worstMargin(o.get());
                    break;
                }
                lo = load;
                mLo = worstMargin(o.get());
                passes.put(load, mLo);
                if (load >= settings.max() || probes.size() >= settings.maxSteps()) {
                    break;
                }
                load = Math.min(settings.max(), settings.axis().integral() ? Math.round(load * 2) : load * 2);
            }
            // narrowing and confirmation
            while (true) {
                if (probes.size() >= settings.maxSteps()) {
                    return end(lo, false, false);
                }
                if (hi != null && !resolved(lo, hi)) {
                    double width = hi - lo;
                    double p = bisectNext ? probe(lo, hi, null, null) : probe(lo, hi, mLo, mHi);
                    Optional<Observation> o = step(p, false);
                    if (o.isEmpty()) {
                        return end(lo, false, true);
                    }
                    if (o.get().met()) {
                        lo = p;
                        mLo = worstMargin(o.get());
                        passes.put(p, mLo);
                    } else {
                        hi = p;
                        mHi = worstMargin(o.get());
                    }
                    bisectNext = hi - lo > width / 2;
                    continue;
                }
                Optional<Observation> o = step(lo, true);
                if (o.isEmpty()) {
                    return end(lo, false, true);
                }
                if (o.get().met()) {
                    return end(lo, true, false);
                }
                passes.remove(lo);
                bisectNext = false;
                hi = lo;
                mHi = worstMargin(o.get());
                lo = passes.lowerKey(hi);
                if (lo == null) {
                    return end(null, false, false);
                }
                mLo = passes.get(lo);
            }
        }

        private Optional<Observation> step(double load, boolean repeat) throws Exception {
            int n = probes.size() + 1;
            Optional<Observation> o = trial.run(n, load, repeat);
            o.ifPresent(obs -> probes.add(new Probe(n, load, repeat, obs)));
            return o;
        }

        private Outcome end(Double best, boolean confirmed, boolean aborted) {
            return new Outcome(best, confirmed, aborted, probes);
        }
    }
}

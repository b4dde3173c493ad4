package io.capstream.aggregator.slo;

import io.capstream.aggregator.slo.SloJudgement.Verdict;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.util.List;
import org.hipparchus.stat.interval.BinomialProportion;
import org.hipparchus.stat.interval.ConfidenceInterval;

/**
 * Decides an SLO on one closed window under a {@link SloDecision}: percentile SLOs read the window's
 * {@code pNN_ci}; {@code error_rate} and {@code goodput} use the Wilson score interval of the proportion
 * (Hipparchus {@link BinomialProportion}) at 95%; {@code output_throughput_tok_s} has no interval and is decided on
 * its point value once the window has {@code minSamples} requests, and so is a percentile of a summary that has
 * neither the percentile's interval nor a reason for its absence (written before the window path filled intervals).
 * Stateless.
 */
public final class SloJudge {
    /** Confidence level of the proportion intervals, as of the percentile ones. */
    public static final double LEVEL = 0.95;

    private SloJudge() {
    }

    /**
     * @param slo      the SLO; not null
     * @param summary  the closed window; not null
     * @param decision how to decide; not null
     * @return the window's verdict, value, interval and sample count
     */
    public static SloJudgement judge(Slo slo, WindowSummary summary, SloDecision decision) {
        Double observed = slo.observe(summary);
        if (observed == null) {
            return new SloJudgement(Verdict.UNDECIDED, null, null, 0);
        }
        long samples;
        List<Double> interval = null;
        if (slo.perRequest()) {
            Quantiles q = slo.quantiles(summary);
            samples = q.getCount();
            interval = slo.interval(q);
        } else {
            samples = summary.getRequests();
            interval = proportionInterval(slo, summary);
        }
        boolean useInterval = decision.mode() == SloDecision.Mode.INTERVAL
                && !Slo.OUTPUT_THROUGHPUT.equals(slo.metric())
                && (!slo.perRequest() || hasIntervalFields(slo, slo.quantiles(summary)));
        if (!useInterval) {
            Verdict v = samples < decision.minSamples() ? Verdict.UNDECIDED
                    : slo.metBy(observed) ? Verdict.MET : Verdict.VIOLATED;
            return new SloJudgement(v, observed, null, samples);
        }
        if (interval == null || interval.size() != 2) {
            return new SloJudgement(Verdict.UNDECIDED, observed, null, samples);
        }
        boolean lowMeets = slo.metBy(interval.get(0));
        boolean highMeets = slo.metBy(interval.get(1));
        Verdict v = lowMeets && highMeets ? Verdict.MET : !lowMeets && !highMeets ? Verdict.VIOLATED : Verdict.UNDECIDED;
        return new SloJudgement(v, observed, interval, samples);
    }

    /**
     * Whether the window's quantiles say something about this percentile's interval: an interval, or a reason in
     * {@code ci_unavailable}. A summary written before issue 32 (or by a window path that does not fill intervals)
     * has neither; it is decided on its point value with the minimum sample count, as under point decisions.
     */
    private static boolean hasIntervalFields(Slo slo, Quantiles q) {
        return slo.interval(q) != null
                || q.getCiUnavailable() != null && q.getCiUnavailable().containsKey("p" + slo.percentile());
    }

    /** Wilson 95% interval of error_rate or goodput; null for other metrics or without requests. */
    private static List<Double> proportionInterval(Slo slo, WindowSummary s) {
        long n = s.getRequests();
        Long hits = switch (slo.metric()) {
            case Slo.ERROR_RATE -> s.getFailed();
            case Slo.GOODPUT -> s.getGoodputRequests();
            default -> null;
        };
        if (n <= 0 || hits == null || n > Integer.MAX_VALUE) {
            return null;
        }
        ConfidenceInterval ci = BinomialProportion.getWilsonScoreInterval((int) n,
                (double) Math.min(hits, n) / n, LEVEL);
        return List.of(Math.max(0.0, ci.getLowerBound()), Math.min(1.0, ci.getUpperBound()));
    }
}

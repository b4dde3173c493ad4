package io.capstream.cli.sweep;

import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.aggregator.stats.RepeatInterval;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.LoadHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One load of {@code sweep --repeat N} (issue 32): the N runs' reports at that load, each metric's mean over them
 * with its 95% Student-t interval and coefficient of variation ({@link RepeatInterval}), and the step's SLO
 * decision by those intervals: the load meets the SLOs only when, for every SLO, the interval of its observed value
 * over the repeats lies wholly on the good side of the threshold, and no repeat fell behind its schedule, was
 * interrupted or stopped. An interval that contains the threshold ({@link RepeatInterval.SloSide#STRADDLES}: the
 * repeats cannot tell) counts as not met, like a miss.
 *
 * @param load    the step's load
 * @param reports the repeats' reports, in run order; at least one
 * @param slos    the sweep's SLOs; may be empty
 */
public record RepeatSummary(double load, List<BenchmarkReport> reports, List<Slo> slos) {
    /**
     * Copies the lists.
     */
    public RepeatSummary {
        reports = List.copyOf(reports);
        slos = List.copyOf(slos);
        if (reports.isEmpty()) {
            throw new IllegalArgumentException("a repeat summary needs at least one report");
        }
    }

    /** @return requests/s over the repeats, or null when a report lacks it */
    public RepeatInterval requestsPerS() {
        return over(SweepDriver::requestsPerS);
    }

    /** @return TTFT p95 (ms) over the repeats, or null when a report lacks it */
    public RepeatInterval ttftP95() {
        return over(r -> p(r.getStatistics() == null ? null : r.getStatistics().getTtftMs(), true));
    }

    /** @return TTFT p50 (ms) over the repeats, or null when a report lacks it */
    public RepeatInterval ttftP50() {
        return over(r -> p(r.getStatistics() == null ? null : r.getStatistics().getTtftMs(), false));
    }

    /** @return E2E p95 (ms) over the repeats, or null when a report lacks it */
    public RepeatInterval e2eP95() {
        return over(r -> p(r.getStatistics() == null ? null : r.getStatistics().getE2eMs(), true));
    }

    /**
     * @param i index of an SLO in {@link #slos()}
     * @return its observed value over the repeats, or null when a repeat has none
     */
    public RepeatInterval observed(int i) {
        return over(r -> r.getSlo() == null ? null : SweepDriver.observation(r, slos).observed().get(i));
    }

    /**
     * @param i index of an SLO in {@link #slos()}
     * @return how that SLO fares against its interval ({@link RepeatInterval.SloSide#STRADDLES} without one)
     */
    public RepeatInterval.SloSide side(int i) {
        RepeatInterval v = observed(i);
        Slo s = slos.get(i);
        return v == null ? RepeatInterval.SloSide.STRADDLES : v.decide(x -> s.comparison().holds(x, s.threshold()));
    }

    /** @return whether the load meets every SLO by the intervals and every repeat ran its load in full */
    public boolean met() {
        for (BenchmarkReport r : reports) {
            LoadHealth h = r.getLoad();
            if (r.getSlo() == null || r.getStopped() != null || h != null && (h.getBehindSchedule()
                    || h.getInterrupted())) {
                return false;
            }
        }
        for (int i = 0; i < slos.size(); i++) {
            if (side(i) != RepeatInterval.SloSide.MET) {
                return false;
            }
        }
        return true;
    }

    /** @return the mean of each SLO's observed value (null where unknown), for the search's margins */
    public List<Double> meanObserved() {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < slos.size(); i++) {
            RepeatInterval v = observed(i);
            out.add(v == null ? null : v.mean());
        }
        return out;
    }

    /**
     * @param axis the sweep's axis
     * @return the line printed after the load's last repeat, e.g. {@code concurrency 4 over 3 runs: req/s 9.80
     *     [9.61, 9.99] CV 0.8%, TTFT p95 212.4 [201.0, 223.8] CV 2.1%; ttft_p95_ms<=300 met} (an SLO is
     *     {@code met}, {@code MISSED} or {@code UNDECIDED (interval contains the threshold)})
     */
    public String line(LoadAxis axis) {
        StringBuilder sb = new StringBuilder(axis.wireName()).append(' ').append(axis.format(load))
                .append(" over ").append(reports.size()).append(" runs: req/s ").append(text(requestsPerS()))
                .append(", TTFT p50 ").append(text(ttftP50())).append(", TTFT p95 ").append(text(ttftP95()))
                .append(", E2E p95 ").append(text(e2eP95()));
        for (int i = 0; i < slos.size(); i++) {
            sb.append(i == 0 ? "; " : ", ").append(slos.get(i).text()).append(' ').append(switch (side(i)) {
                case MET -> "met";
                case MISSED -> "MISSED";
                case STRADDLES -> "UNDECIDED (interval contains the threshold)";
            });
        }
        return sb.toString();
    }

    private RepeatInterval over(Function<BenchmarkReport, Double> metric) {
        double[] v = new double[reports.size()];
        for (int i = 0; i < v.length; i++) {
            Double d = metric.apply(reports.get(i));
            if (d == null || d.isNaN()) {
                return null;
            }
            v[i] = d;
        }
        return RepeatInterval.of(v, QuantileInterval.DEFAULT_LEVEL);
    }

    private static Double p(Distribution d, boolean p95) {
        return d == null ? null : p95 ? d.getP95() : d.getP50();
    }

    private static String text(RepeatInterval r) {
        return r == null ? "-" : r.text();
    }

    /**
     * @param loads each load's summary, in load order (ascending for a grid)
     * @return the largest load that met the SLOs by the intervals below the smallest load that did not, or null
     */
    public static Double maxLoadMet(List<RepeatSummary> loads) {
        double minFail = Double.POSITIVE_INFINITY;
        for (RepeatSummary s : loads) {
            if (!s.met()) {
                minFail = Math.min(minFail, s.load());
            }
        }
        Double best = null;
        for (RepeatSummary s : loads) {
            if (s.met() && s.load() < minFail && (best == null || s.load() > best)) {
                best = s.load();
            }
        }
        return best;
    }

    /**
     * @param loads each load's summary, in the order run; not empty
     * @param axis  the sweep's axis
     * @return the section printed after the sweep's table: a heading, one {@link #line} per load and the largest
     *     load meeting the SLOs by the intervals (when there are SLOs), lines ending in {@code \n}
     */
    public static String render(List<RepeatSummary> loads, LoadAxis axis) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%nrepeats: mean over each load's %d runs [95%% t-interval] and"
                + " coefficient of variation%n", loads.get(0).reports().size()));
        for (RepeatSummary s : loads) {
            sb.append("  ").append(s.line(axis)).append('\n');
        }
        if (!loads.get(0).slos().isEmpty()) {
            Double max = maxLoadMet(loads);
            sb.append(max == null ? "no load met the SLOs by the intervals of its runs\n"
                    : "largest load meeting the SLOs by the intervals of its runs: " + axis.wireName() + " "
                    + axis.format(max) + "\n");
        }
        return sb.toString();
    }
}

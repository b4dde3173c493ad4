package io.capstream.aggregator.sweep;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import io.capstream.schemas.avro.SweepStepRef;
import io.capstream.schemas.report.ReportView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Pure functions from step reports to a sweep's capacity curve ({@link SweepCurve}, schema
 * {@code SweepCurve.avsc}, whose docs define every field): one {@link SweepPoint} per step, rebuilt
 * from the step's {@link BenchmarkReport}, and the largest load meeting the SLOs. The result depends
 * only on the reports (not on the clock or on the order in which different steps arrive), so a replay
 * of the same reports gives the same curve. Stateless and thread-safe; inputs are never modified.
 */
public final class SweepCurves {
    /** Value of {@code axis} (SweepStepRef / SweepCurve) for a closed-loop sweep over slots. */
    public static final String AXIS_CONCURRENCY = "concurrency";
    /** Value of {@code axis} for an open-loop sweep over the arrival rate, req/s. */
    public static final String AXIS_RATE = "rate";

    private SweepCurves() {
    }

    /**
     * The largest load meeting the SLOs ({@code SweepCurve.max_load_meeting_slos}) and the step that
     * shows it.
     *
     * @param load  the load on the sweep's axis: slots, or req/s
     * @param step  the step number of the last (highest step) point at that load
     * @param runId the run id of that point; not null
     */
    public record MaxLoad(double load, int step, String runId) {
        /** Validates. */
        public MaxLoad {
            Objects.requireNonNull(runId, "runId");
        }
    }

    /**
     * Maps one step's report to its curve point (schema {@code SweepPoint}): {@code requests} = the
     * requests that ran (completed + failed; the report's planned {@code requests} when {@code failed}
     * is null), {@code error_rate} = failed / requests, {@code requests_per_s} =
     * {@code statistics.request_throughput_rps}, {@code output_tok_s} = {@code metrics.throughput_tok_s},
     * {@code total_tok_s} = {@code statistics.total_token_throughput_tok_s}, TTFT and E2E percentiles
     * from {@code statistics.ttft_ms} / {@code statistics.e2e_ms} (p50 and p95 fall back to
     * {@code metrics} when {@code statistics} is null), ITL from {@code statistics.itl_ms} (per-request
     * mean, what an {@code itl_pNN_ms} SLO observes), inter-chunk latency from
     * {@code statistics.inter_chunk_ms}, {@code goodput} / {@code goodput_rps} from {@code slo},
     * {@code meets_slos} = {@link #meetsSlos}, {@code offered_load} = {@code load} = {@code sweep.value},
     * {@code scheduled_load} = {@code load.scheduled_rate_rps} (rate axis), {@code achieved_load} =
     * {@code load.achieved_concurrency} (concurrency axis) or {@code load.achieved_rate_rps} (rate axis),
     * {@code behind_schedule} and {@code interrupted} from {@code load}. A missing statistics, slo or load
     * record leaves its fields null (false for the flags). {@code percentile_ci} holds the 95% interval of each
     * percentile read from a Distribution that has one ({@link #percentileCi}).
     *
     * @param r a report with a {@code sweep} reference; not null
     * @return the point; never null
     * @throws IllegalArgumentException when {@code r.sweep} is null
     */
    public static SweepPoint point(BenchmarkReport r) {
        SweepStepRef ref = ref(r);
        Metrics m = r.getMetrics();
        RunStatistics s = r.getStatistics();
        SloReport slo = r.getSlo();
        LoadHealth load = r.getLoad();
        int failed = r.getFailed() == null ? 0 : r.getFailed();
        int requests = r.getFailed() == null ? r.getRequests() : r.getCompleted() + failed;
        Double errorRate = r.getFailed() == null || requests == 0 ? null : (double) failed / requests;
        Distribution ttft = s == null ? null : s.getTtftMs();
        // embeddings, rerank (issue 30): no E2E rows; their request latency is the step's E2E
        Distribution e2e = s == null ? null : s.getRequestLatencyMs() != null ? s.getRequestLatencyMs() : s.getE2eMs();
        Distribution itl = s == null ? null : s.getItlMs();
        Distribution chunks = s == null ? null : s.getInterChunkMs();
        Double achieved = null;
        if (load != null) {
            achieved = AXIS_RATE.equals(ref.getAxis()) ? load.getAchievedRateRps()
                    : AXIS_CONCURRENCY.equals(ref.getAxis()) ? load.getAchievedConcurrency() : null;
        }
        return SweepPoint.newBuilder()
                .setStep(ref.getStep())
                .setRunId(r.getRunId())
                .setLoad(ref.getValue())
                .setRepeat(ref.getRepeat())
                .setRequests(requests)
                .setCompleted(r.getCompleted())
                .setFailed(failed)
                .setErrorRate(errorRate)
                .setRequestsPerS(s == null ? null : s.getRequestThroughputRps())
                .setOutputTokS(m == null ? null : m.getThroughputTokS())
                .setTotalTokS(s == null ? null : s.getTotalTokenThroughputTokS())
                .setTtftP50Ms(ttft != null ? ttft.getP50() : m == null ? null : m.getTtftP50Ms())
                .setTtftP95Ms(ttft != null ? ttft.getP95() : m == null ? null : m.getTtftP95Ms())
                .setTtftP99Ms(ttft == null ? null : ttft.getP99())
                .setItlP50Ms(itl == null ? null : itl.getP50())
                .setItlP95Ms(itl == null ? null : itl.getP95())
                .setItlP99Ms(itl == null ? null : itl.getP99())
                .setInterChunkP50Ms(chunks == null ? null : chunks.getP50())
                .setInterChunkP95Ms(chunks == null ? null : chunks.getP95())
                .setInterChunkP99Ms(chunks == null ? null : chunks.getP99())
                .setE2eP50Ms(e2e != null ? e2e.getP50() : m == null ? null : m.getE2eP50Ms())
                .setE2eP95Ms(e2e != null ? e2e.getP95() : m == null ? null : m.getE2eP95Ms())
                .setE2eP99Ms(e2e == null ? null : e2e.getP99())
                .setGoodput(slo == null ? null : slo.getGoodput())
                .setGoodputRps(slo == null ? null : slo.getGoodputRps())
                .setOfferedLoad(ref.getValue())
                .setScheduledLoad(load != null && AXIS_RATE.equals(ref.getAxis()) ? load.getScheduledRateRps() : null)
                .setAchievedLoad(achieved)
                .setBehindSchedule(load != null && load.getBehindSchedule())
                .setInterrupted(load != null && load.getInterrupted())
                .setHeldByInFlightCap(ReportView.heldByInFlightCap(load))
                .setMeetsSlos(meetsSlos(r))
                .setPercentileCi(percentileCi(ttft, itl, chunks, e2e))
                .build();
    }

    /**
     * The 95% intervals of a point's percentiles (issue 32), keyed by the point's field name.
     *
     * @return {@code ttft_p95_ms -> [low, high]} and the like for every percentile whose Distribution has an interval;
     *         null when none has one (each Distribution may be null)
     */
    static java.util.Map<String, List<Double>> percentileCi(Distribution ttft, Distribution itl, Distribution chunks,
                                                            Distribution e2e) {
        java.util.Map<String, List<Double>> out = new java.util.LinkedHashMap<>();
        String[] names = {"ttft", "itl", "inter_chunk", "e2e"};
        Distribution[] ds = {ttft, itl, chunks, e2e};
        for (int i = 0; i < ds.length; i++) {
            Distribution d = ds[i];
            if (d == null) {
                continue;
            }
            putCi(out, names[i] + "_p50_ms", d.getP50Ci());
            putCi(out, names[i] + "_p95_ms", d.getP95Ci());
            putCi(out, names[i] + "_p99_ms", d.getP99Ci());
        }
        return out.isEmpty() ? null : out;
    }

    private static void putCi(java.util.Map<String, List<Double>> out, String field, List<Double> ci) {
        if (ci != null && ci.size() == 2) {
            out.put(field, List.copyOf(ci));
        }
    }

    /**
     * Whether a step met every SLO at the load it was asked for: the one pass/fail rule of sweeps, used
     * by the curve ({@code meets_slos}, {@link #maxLoadMeetingSlos}) and by the SLO search. A step passes
     * when its report says every SLO was met ({@code slo.met_all}), and it did not fall behind its arrival
     * schedule ({@code load.behind_schedule}: the endpoint, or the in-flight cap, held the load below
     * the rate asked for, so the latencies belong to a lower load), was not interrupted
     * ({@code load.interrupted}), no stop rule ended it early ({@code stopped}, issue 30: an error rate or saturation
     * that stopped the step is a miss) and its report is complete ({@code provenance.complete}). A step held back by
     * the client's own in-flight cap ({@link ReportView#heldByInFlightCap}) gets no verdict: it did not apply its
     * load, and the endpoint is not to blame for that.
     *
     * @param r a step's report; not null
     * @return whether it passes; null when the report has no SLOs or the client's in-flight cap held the step
     */
    public static Boolean meetsSlos(BenchmarkReport r) {
        SloReport slo = r.getSlo();
        LoadHealth load = r.getLoad();
        if (slo == null || ReportView.heldByInFlightCap(load)) {
            return null;
        }
        boolean loadApplied = load == null || (!load.getBehindSchedule() && !load.getInterrupted());
        boolean complete = r.getProvenance() == null || r.getProvenance().getComplete();
        return slo.getMetAll() && loadApplied && complete && r.getStopped() == null;
    }

    /**
     * The curve of one report alone: its sweep's id, axis, mode and steps_planned (from
     * {@code r.sweep}), its SLO texts ({@code slo.slos[].slo}, empty without SLOs), its one
     * {@link #point point}, the max load over that point and {@code updated_at_ms} =
     * {@code provenance.generated_at_ms}.
     *
     * @param r a report with a {@code sweep} reference; not null
     * @return a new curve with one point
     * @throws IllegalArgumentException when {@code r.sweep} is null
     */
    public static SweepCurve of(BenchmarkReport r) {
        SweepStepRef ref = ref(r);
        List<String> slos = new ArrayList<>();
        if (r.getSlo() != null) {
            for (SloAttainment a : r.getSlo().getSlos()) {
                slos.add(a.getSlo());
            }
        }
        List<SweepPoint> points = List.of(point(r));
        MaxLoad max = maxLoadMeetingSlos(points);
        return SweepCurve.newBuilder()
                .setSweepId(ref.getSweepId())
                .setAxis(ref.getAxis())
                .setMode(ref.getMode())
                .setSlos(slos)
                .setStepsPlanned(ref.getStepsPlanned())
                .setPoints(new ArrayList<>(points))
                .setMaxLoadMeetingSlos(max == null ? null : max.load())
                .setMaxLoadLowerBound(lowerBound(points, max))
                .setMaxLoadRunId(max == null ? null : max.runId())
                .setUpdatedAtMs(r.getProvenance() == null ? 0 : r.getProvenance().getGeneratedAtMs())
                .build();
    }

    /**
     * Adds one step's report to a curve: {@code fold(current, r) = merge(current, of(r))}. A report of
     * a step already in the curve (republished when late events arrive, or replayed) replaces that
     * step's point.
     *
     * @param current the curve so far; null for none
     * @param r       a report of the same sweep (its {@code sweep.sweep_id} equals {@code current}'s);
     *                not null
     * @return a new curve; {@code current} is not modified
     * @throws IllegalArgumentException when {@code r.sweep} is null or names another sweep
     */
    public static SweepCurve fold(SweepCurve current, BenchmarkReport r) {
        return merge(current, of(r));
    }

    /**
     * Merges a curve update into a curve: the update's points add to or replace (same step) the
     * current ones, points sorted by step; axis, mode and steps_planned are the update's; slos are the
     * update's unless it has none (then the current ones); {@code updated_at_ms} is the larger of the
     * two; {@code max_load_meeting_slos} / {@code max_load_run_id} are recomputed with
     * {@link #maxLoadMeetingSlos}.
     *
     * @param current the curve so far; null for none (the update is then returned as is)
     * @param update  the curve of newer reports of the same sweep (e.g. {@link #of}); not null
     * @return the merged curve (a new record unless {@code current} is null)
     * @throws IllegalArgumentException when the two curves have different sweep ids
     */
    public static SweepCurve merge(SweepCurve current, SweepCurve update) {
        Objects.requireNonNull(update, "update");
        if (current == null) {
            return update;
        }
        if (!current.getSweepId().equals(update.getSweepId())) {
            throw new IllegalArgumentException("cannot merge sweep " + update.getSweepId() + " into sweep "
                    + current.getSweepId());
        }
        TreeMap<Integer, SweepPoint> byStep = new TreeMap<>();
        for (SweepPoint p : current.getPoints()) {
            byStep.put(p.getStep(), p);
        }
        for (SweepPoint p : update.getPoints()) {
            byStep.put(p.getStep(), p);
        }
        List<SweepPoint> points = new ArrayList<>(byStep.values());
        MaxLoad max = maxLoadMeetingSlos(points);
        return SweepCurve.newBuilder()
                .setSweepId(update.getSweepId())
                .setAxis(update.getAxis())
                .setMode(update.getMode())
                .setSlos(new ArrayList<>(update.getSlos().isEmpty() ? current.getSlos() : update.getSlos()))
                .setStepsPlanned(update.getStepsPlanned())
                .setPoints(points)
                .setMaxLoadMeetingSlos(max == null ? null : max.load())
                .setMaxLoadLowerBound(lowerBound(points, max))
                .setMaxLoadRunId(max == null ? null : max.runId())
                .setUpdatedAtMs(Math.max(current.getUpdatedAtMs(), update.getUpdatedAtMs()))
                .build();
    }

    /**
     * The largest load meeting the SLOs (schema doc of {@code SweepCurve.max_load_meeting_slos}): with
     * pass(v) = every point at load v has {@code meets_slos} true, and minFail = the smallest load of a
     * point with {@code meets_slos} false (infinity if none), the largest v &lt; minFail with pass(v).
     * So a search's failing confirmation repeat disqualifies its load (and everything above it), and a
     * passing load above a failing one does not count.
     *
     * @param points the curve's points, any order; not null
     * @return the load with the step and run id of its last (highest step) point; null when no point
     *         has {@code meets_slos} set (no SLOs) or no load passes
     */
    public static MaxLoad maxLoadMeetingSlos(List<SweepPoint> points) {
        double minFail = Double.POSITIVE_INFINITY;
        boolean anyVerdict = false;
        for (SweepPoint p : points) {
            if (p.getMeetsSlos() != null) {
                anyVerdict = true;
                if (!p.getMeetsSlos()) {
                    minFail = Math.min(minFail, p.getLoad());
                }
            }
        }
        if (!anyVerdict) {
            return null;
        }
        // every point of a load, in step order: the load passes when all of them met the SLOs
        TreeMap<Double, List<SweepPoint>> byLoad = new TreeMap<>();
        points.stream().sorted(Comparator.comparingInt(SweepPoint::getStep))
                .forEach(p -> byLoad.computeIfAbsent(p.getLoad(), k -> new ArrayList<>()).add(p));
        for (var e : byLoad.headMap(minFail, false).descendingMap().entrySet()) {
            List<SweepPoint> atLoad = e.getValue();
            if (atLoad.stream().allMatch(p -> Boolean.TRUE.equals(p.getMeetsSlos()))) {
                SweepPoint last = atLoad.get(atLoad.size() - 1);
                return new MaxLoad(e.getKey(), last.getStep(), last.getRunId());
            }
        }
        return null;
    }

    /**
     * Whether the max load is only a lower bound of the capacity ({@code SweepCurve.max_load_lower_bound}): no
     * point at a higher load missed the SLOs ({@code meets_slos} false), so the largest load tried met them, or the
     * points above it got no verdict (held by the client's in-flight cap).
     *
     * @param points the curve's points; not null
     * @param max    the curve's max load ({@link #maxLoadMeetingSlos}), or null
     * @return false when {@code max} is null
     */
    public static boolean lowerBound(List<SweepPoint> points, MaxLoad max) {
        if (max == null) {
            return false;
        }
        for (SweepPoint p : points) {
            if (p.getLoad() > max.load() && Boolean.FALSE.equals(p.getMeetsSlos())) {
                return false;
            }
        }
        return true;
    }

    private static SweepStepRef ref(BenchmarkReport r) {
        SweepStepRef ref = r.getSweep();
        if (ref == null) {
            throw new IllegalArgumentException("report " + r.getRunId() + " is not a step of a sweep (sweep is null)");
        }
        return ref;
    }
}

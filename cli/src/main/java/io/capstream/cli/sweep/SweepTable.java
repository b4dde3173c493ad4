package io.capstream.cli.sweep;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The console table at the end of {@code capstream sweep}: one row per step of the curve (step, load,
 * req/s, output tokens/s, TTFT p50/p95/p99 ms, per-token ITL p99 ms, E2E p95 ms, error %, goodput %,
 * achieved load, SLOs met, MISSED or CAPPED: held by the client's in-flight cap), then a line naming the capped
 * steps, if any, and the max load line ("at least" when it is only a lower bound). Missing values print as {@code -}. Pure.
 */
public final class SweepTable {
    private static final String ROW = "%-5s %11s %8s %10s %9s %9s %9s %8s %9s %6s %8s %9s %s";

    private SweepTable() {
    }

    /**
     * @param curve the sweep's curve; not null
     * @return the table, lines ending in {@code \n}; a repeat step is marked {@code r} after its number
     */
    public static String render(SweepCurve curve) {
        return render(curve, Set.of());
    }

    /**
     * As {@link #render(SweepCurve)}, with the steps a stop rule ended early (issue 30) marked {@code STOPPED} in the
     * SLOs column (such a step counts as missing the SLOs) and named in a line after the table.
     *
     * @param curve   the sweep's curve; not null
     * @param stopped run ids of the steps a stop rule ended early; not null
     * @return the table, lines ending in {@code \n}
     */
    public static String render(SweepCurve curve, Set<String> stopped) {
        StringBuilder sb = new StringBuilder();
        LoadAxis axis = LoadAxis.parse(curve.getAxis());
        row(sb, "step", axis.integral() ? "concurrency" : "rate (r/s)", "req/s",
                "out tok/s", "TTFT p50", "TTFT p95", "TTFT p99", "ITL p99", "E2E p95", "err %", "goodput",
                "achieved", "SLOs");
        for (SweepPoint p : curve.getPoints()) {
            row(sb, p.getStep() + (p.getRepeat() ? "r" : ""), axis.format(p.getLoad()),
                    num(p.getRequestsPerS(), 2), num(p.getOutputTokS(), 1), num(p.getTtftP50Ms(), 1),
                    num(p.getTtftP95Ms(), 1), num(p.getTtftP99Ms(), 1), num(p.getItlP99Ms(), 1),
                    num(p.getE2eP95Ms(), 1), percent(p.getErrorRate()), percent(p.getGoodput()),
                    num(p.getAchievedLoad(), 2) + (p.getBehindSchedule() ? "!" : ""),
                    stopped.contains(p.getRunId()) ? "STOPPED" : p.getHeldByInFlightCap() ? "CAPPED"
                            : p.getMeetsSlos() == null ? "-" : p.getMeetsSlos() ? "met" : "MISSED");
        }
        List<String> stoppedSteps = new ArrayList<>();
        for (SweepPoint p : curve.getPoints()) {
            if (stopped.contains(p.getRunId())) {
                stoppedSteps.add(Integer.toString(p.getStep()));
            }
        }
        if (!stoppedSteps.isEmpty()) {
            sb.append("stopped by a stop rule: step").append(stoppedSteps.size() == 1 ? " " : "s ")
                    .append(String.join(", ", stoppedSteps))
                    .append(" (capstream.stopped in the step's report; counts as missing the SLOs)\n");
        }
        String capped = cappedLine(curve);
        if (capped != null) {
            sb.append(capped).append('\n');
        }
        sb.append(maxLine(curve)).append('\n');
        return sb.toString();
    }

    /**
     * @param curve the sweep's curve; not null
     * @return {@code max load meeting SLOs: concurrency 8 (step 4, run <id>)}, {@code none of the loads met the
     *         SLOs}, {@code no max load meeting SLOs: concurrency 1 (step 1) missed them, and ...} when higher
     *         loads met them above a lower one that missed, or {@code no SLOs given: no max load} without SLOs
     */
    public static String maxLine(SweepCurve curve) {
        if (curve.getSlos().isEmpty()) {
            return "no SLOs given (--slo): no max load meeting SLOs";
        }
        Double max = curve.getMaxLoadMeetingSlos();
        LoadAxis axis = LoadAxis.parse(curve.getAxis());
        if (max == null) {
            return noMaxLoad(curve, axis);
        }
        String runId = curve.getMaxLoadRunId();
        Integer step = null;
        for (SweepPoint p : curve.getPoints()) {
            if (p.getRunId().equals(runId)) {
                step = p.getStep();
            }
        }
        return "max load meeting SLOs: " + (curve.getMaxLoadLowerBound() ? "at least " : "") + axis.wireName() + " "
                + axis.format(max) + (axis.integral() ? "" : " req/s") + " (" + (step == null ? "" : "step " + step + ", ")
                + "run " + runId + ")" + (curve.getMaxLoadLowerBound() ? ": a lower bound, no higher load missed the"
                + " SLOs" + (maxLoadIsLargestTried(curve, max) ? " (it is the largest load tried)" : "")
                + "; the endpoint may take more" : "");
    }

    private static boolean maxLoadIsLargestTried(SweepCurve curve, double max) {
        return curve.getPoints().stream().allMatch(p -> p.getLoad() <= max);
    }

    /**
     * @param curve the sweep's curve; not null
     * @return e.g. {@code steps 3, 4 (rate 16, 32 req/s) were held by the client's in-flight cap (--max-in-flight):
     *         they say nothing about the endpoint; raise --max-in-flight to measure those loads}, or null when no
     *         step was held by it
     */
    static String cappedLine(SweepCurve curve) {
        LoadAxis axis = LoadAxis.parse(curve.getAxis());
        List<String> steps = new ArrayList<>();
        List<String> loads = new ArrayList<>();
        for (SweepPoint p : curve.getPoints()) {
            if (p.getHeldByInFlightCap()) {
                steps.add(Integer.toString(p.getStep()));
                loads.add(axis.format(p.getLoad()));
            }
        }
        if (steps.isEmpty()) {
            return null;
        }
        return (steps.size() == 1 ? "step " : "steps ") + String.join(", ", steps) + " (" + axis.wireName() + " "
                + String.join(", ", loads) + (axis.integral() ? "" : " req/s") + ") "
                + (steps.size() == 1 ? "was" : "were") + " held by the client's in-flight cap (--max-in-flight), not"
                + " by the endpoint: no SLO verdict; raise --max-in-flight to measure "
                + (steps.size() == 1 ? "that load" : "those loads");
    }

    /**
     * Why there is no max load: none met the SLOs, or (a load counts only when every lower load met them too,
     * {@code SweepCurves.maxLoadMeetingSlos}) a lower step missed them while higher ones met them.
     */
    private static String noMaxLoad(SweepCurve curve, LoadAxis axis) {
        SweepPoint lowestMiss = null;
        for (SweepPoint p : curve.getPoints()) {
            if (Boolean.FALSE.equals(p.getMeetsSlos()) && (lowestMiss == null || p.getLoad() < lowestMiss.getLoad())) {
                lowestMiss = p;
            }
        }
        Set<String> metAbove = new LinkedHashSet<>();
        for (SweepPoint p : curve.getPoints()) {
            if (Boolean.TRUE.equals(p.getMeetsSlos()) && lowestMiss != null && p.getLoad() > lowestMiss.getLoad()) {
                metAbove.add(axis.format(p.getLoad()));
            }
        }
        if (metAbove.isEmpty()) {
            return "none of the loads met the SLOs";
        }
        return "no max load meeting SLOs: " + axis.wireName() + " " + axis.format(lowestMiss.getLoad()) + " (step "
                + lowestMiss.getStep() + ") missed them, and a load counts only when every lower load met them too ("
                + String.join(", ", metAbove) + " met them)";
    }

    private static void row(StringBuilder sb, Object... cells) {
        sb.append(String.format(Locale.ROOT, ROW, cells).stripTrailing()).append('\n');
    }

    private static String num(Double v, int decimals) {
        return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String percent(Double fraction) {
        return fraction == null ? "-" : String.format(Locale.ROOT, "%.1f", fraction * 100);
    }
}

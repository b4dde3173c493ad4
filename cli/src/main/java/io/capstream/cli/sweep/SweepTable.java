package io.capstream.cli.sweep;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The console table at the end of {@code capstream sweep}: one row per step of the curve (step, load,
 * req/s, output tokens/s, TTFT p50/p95/p99 ms, per-token ITL p99 ms, E2E p95 ms, error %, goodput %,
 * achieved load, SLOs met or MISSED), then the max load line. Missing values print as {@code -}. Pure.
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
                    p.getMeetsSlos() == null ? "-" : p.getMeetsSlos() ? "met" : "MISSED");
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
        return "max load meeting SLOs: " + axis.wireName() + " " + axis.format(max)
                + (axis.integral() ? "" : " req/s") + " (" + (step == null ? "" : "step " + step + ", ")
                + "run " + runId + ")";
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

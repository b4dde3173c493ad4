package io.capstream.aggregator.importer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reconstructs the float seconds an artifact's millisecond values were computed from, so that the
 * recomputed rows are bit-identical to the artifact's (spec §7: every {@code *_ms} is
 * {@code seconds * 1000.0}).
 *
 * <p>The ulp of {@code s * 1000} is 512 or 1024 times the ulp of {@code s}, so a millisecond value
 * has zero, one or two preimages: {@code ms / 1000} is usually, but not always, one of them, and
 * when there are two the derived row fields ({@code generation_ms = (e2e - ttfo) * 1000},
 * {@code effective_prefill_tok_s = prompt / ttfo}, {@code decode_tok_s}, ITL,
 * {@code visible_generation_ms}) decide. The solver enumerates the candidate set of each time
 * ({@link #candidates(double)}), filters it by the constraints that depend on one time, and
 * binary-searches the monotone two-time constraints.
 * When no exact solution exists (a hand-edited file), it returns the doubles nearest to
 * {@code ms / 1000} with {@code exact = false}.
 */
public final class ExactSecondsSolver {
    private ExactSecondsSolver() {
    }

    /**
     * All doubles {@code s} with {@code s * 1000.0 == ms}, ascending.
     *
     * @param ms a finite millisecond value
     * @return the candidates; empty when no double maps onto {@code ms}
     */
    public static double[] candidates(double ms) {
        double x = ms / 1000.0;
        if (x * 1000.0 != ms) {
            double up = x;
            double down = x;
            boolean found = false;
            for (int i = 0; i < 4 && !found; i++) {
                up = Math.nextUp(up);
                down = Math.nextDown(down);
                if (up * 1000.0 == ms) {
                    x = up;
                    found = true;
                } else if (down * 1000.0 == ms) {
                    x = down;
                    found = true;
                }
            }
            if (!found) {
                return new double[0];
            }
        }
        double lo = x;
        while (Math.nextDown(lo) * 1000.0 == ms) {
            lo = Math.nextDown(lo);
        }
        double hi = x;
        while (Math.nextUp(hi) * 1000.0 == ms) {
            hi = Math.nextUp(hi);
        }
        List<Double> out = new ArrayList<>();
        for (double v = lo; v <= hi; v = Math.nextUp(v)) {
            out.add(v);
            if (v == hi) {
                break;
            }
        }
        double[] r = new double[out.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = out.get(i);
        }
        return r;
    }

    /**
     * The target values of one {@code request_timings[]} row.
     *
     * @param ttfoMs time_to_first_output_ms, or null (early-v3 row: TTFO = TTFT)
     * @param ttftMs ttft_ms
     * @param e2eMs e2e_ms
     * @param generationMs generation_ms
     * @param visibleGenerationMs visible_generation_ms, or null (early-v3 row)
     * @param effectivePrefill effective_prefill_tok_s or null
     * @param decode decode_tok_s or null
     * @param itl mean_inter_token_latency_ms or null
     * @param promptTokens prompt_tokens or null
     * @param outputTokens output_tokens or null
     */
    public record RowTarget(Double ttfoMs, double ttftMs, double e2eMs, double generationMs,
                            Double visibleGenerationMs, Double effectivePrefill, Double decode, Double itl,
                            Long promptTokens, Long outputTokens) {
    }

    /**
     * Reconstructed seconds.
     *
     * @param ttfo time to first output, s (equals ttft for early-v3 rows)
     * @param ttft TTFT, s
     * @param e2e E2E, s
     * @param exact true when every row value is reproduced bit for bit
     */
    public record RowSeconds(double ttfo, double ttft, double e2e, boolean exact) {
    }

    /**
     * Solves one row.
     *
     * @param t the row's values
     * @return seconds reproducing every row value when possible
     */
    public static RowSeconds solveRow(RowTarget t) {
        boolean early = t.ttfoMs() == null;
        double ttfoMs = early ? t.ttftMs() : t.ttfoMs();
        double[] a = candidates(ttfoMs);
        double[] b = early ? a : candidates(t.ttftMs());
        double[] c = candidates(t.e2eMs());
        double nearA = ttfoMs / 1000.0;
        double nearB = t.ttftMs() / 1000.0;
        double nearC = t.e2eMs() / 1000.0;
        RowSeconds fallback = new RowSeconds(early ? nearB : nearA, nearB, nearC, false);
        if (a.length == 0 || b.length == 0 || c.length == 0) {
            return fallback;
        }
        // single-time constraint: effective_prefill = prompt / ttfo
        List<Double> aOk = new ArrayList<>();
        for (double x : a) {
            if (eq(prefill(t.promptTokens(), x), t.effectivePrefill())) {
                aOk.add(x);
            }
        }
        aOk.sort(Comparator.comparingDouble(x -> Math.abs(x - nearA)));
        for (double x : aOk) {
            // generation_ms = fl(fl(c - x) * 1000) is non-decreasing in c
            int lo = lowerBound(c, y -> (y - x) * 1000.0 >= t.generationMs());
            int hi = lowerBound(c, y -> (y - x) * 1000.0 > t.generationMs());
            for (int i = lo; i < hi; i++) {
                double y = c[i];
                double gen = y - x;
                if (!eq(decode(t.outputTokens(), gen), t.decode()) || !eq(itl(t.outputTokens(), gen), t.itl())) {
                    continue;
                }
                if (early) {
                    return new RowSeconds(x, x, y, true);
                }
                // visible_generation_ms = fl(fl(y - z) * 1000) is non-increasing in z; need x <= z <= y
                double vis = t.visibleGenerationMs();
                int zlo = lowerBound(b, z -> (y - z) * 1000.0 <= vis);
                int zhi = lowerBound(b, z -> (y - z) * 1000.0 < vis);
                for (int j = zlo; j < zhi; j++) {
                    double z = b[j];
                    if (z >= x && z <= y) {
                        return new RowSeconds(x, z, y, true);
                    }
                }
            }
        }
        return fallback;
    }

    /**
     * Reconstructs the run wall clock in seconds: {@code s * 1000.0 == wallMs} and, when given,
     * {@code numerator / s == rate} (throughput_tok_s from output_tokens, or content_chunks_s from
     * content_chunks).
     *
     * @param wallMs wall_clock_ms
     * @param numerator output_tokens or content_chunks, or null when there is no rate to match
     * @param rate the file's rate, or null
     * @return the seconds (nearest to wallMs / 1000 among the exact solutions, else wallMs / 1000)
     */
    public static double solveWall(double wallMs, Long numerator, Double rate) {
        double near = wallMs / 1000.0;
        double[] cand = candidates(wallMs);
        double best = Double.NaN;
        for (double s : cand) {
            if (numerator != null && rate != null && numerator.doubleValue() / s != rate) {
                continue;
            }
            if (Double.isNaN(best) || Math.abs(s - near) < Math.abs(best - near)) {
                best = s;
            }
        }
        if (!Double.isNaN(best)) {
            return best;
        }
        // no candidate reproduces the rate: keep wall_clock_ms exact at least
        double nearest = near;
        double bestDist = Double.POSITIVE_INFINITY;
        for (double s : cand) {
            if (Math.abs(s - near) < bestDist) {
                bestDist = Math.abs(s - near);
                nearest = s;
            }
        }
        return nearest;
    }

    private static Double prefill(Long prompt, double ttfo) {
        return prompt != null && ttfo != 0 ? prompt.doubleValue() / ttfo : null;
    }

    private static Double decode(Long out, double gen) {
        return out != null && out - 1 > 0 && gen > 0 ? (double) (out - 1) / gen : null;
    }

    private static Double itl(Long out, double gen) {
        return out != null && out - 1 > 0 && gen > 0 ? gen * 1000 / (double) (out - 1) : null;
    }

    private static boolean eq(Double computed, Double expected) {
        if (computed == null || expected == null) {
            return computed == null && expected == null;
        }
        return computed.doubleValue() == expected.doubleValue();
    }

    private interface DoublePredicate {
        boolean test(double v);
    }

    /** First index whose element satisfies the (monotone false..true) predicate; length if none. */
    private static int lowerBound(double[] xs, DoublePredicate p) {
        int lo = 0;
        int hi = xs.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (p.test(xs[mid])) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}

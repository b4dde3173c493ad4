package io.capstream.aggregator.change;

import io.capstream.aggregator.change.CusumState.Point;
import java.util.Arrays;
import java.util.List;
import org.hipparchus.stat.inference.MannWhitneyUTest;

/**
 * Finds lasting shifts in a series of window percentiles (issue 32): a two-sided CUSUM (Page 1954; Montgomery,
 * <i>Introduction to Statistical Quality Control</i>, §9.1) on the natural log of each window's value, so that a
 * shift is a ratio (20% slower is the same step at 100 ms as at 10 s). Each new value is standardised against the
 * reference level: {@code z = (ln x - median(reference)) / scale} (clipped to &plusmn;{@link #CLIP}), with the scale a robust spread of the reference
 * windows (1.4826 &times; their median absolute deviation, at least {@link #MIN_SCALE}); the upper sum
 * {@code up = max(0, up + z - k)} and the lower one {@code down = max(0, down - z - k)} grow only while the values
 * stay on one side, and the detector fires when one exceeds {@code h}, the newest window is beyond the reference on that
 * side, at least {@link #MIN_AFTER} windows are at the new level, and a Mann-Whitney test tells them from the
 * reference with confidence {@link #MIN_CONFIDENCE}. The reference is the {@link #REFERENCE}
 * windows before the newest {@link #LAG} (so that the first windows after a shift are judged against the old
 * level); the first {@code WARM_UP + LAG} windows of a series (or after a change) only build it. On a detection the
 * change is placed within the windows since the firing sum was last zero, at the split that best separates a new
 * level from the reference (likelihood ratio of a step); the windows from there on start the new series.
 */
public final class ChangePointDetector {
    /** Reference windows kept. */
    public static final int REFERENCE = 30;
    /** Reference windows needed before the detector judges. */
    public static final int WARM_UP = 10;
    /** The newest windows are not in the reference, so that a shift does not move the reference it is judged by. */
    public static final int LAG = 10;
    /** Latest windows kept (the longest excursion a detection can report). */
    public static final int RECENT = 60;
    /** Smallest scale, in log units (2%: the sketch's 1% relative accuracy on both sides). */
    public static final double MIN_SCALE = 0.02;
    /**
     * Each window's standardised step is clipped to &plusmn;4 scale units, so that one outlying window (a restart, a
     * transient stall) cannot fire alone: a change needs at least three windows beyond the reference.
     */
    public static final double CLIP = 4;
    /** Smallest Mann-Whitney confidence (1 - p) of a published change. */
    public static final double MIN_CONFIDENCE = 0.95;
    /** Fewest windows at the new level a change needs. */
    public static final int MIN_AFTER = 2;
    /** Default allowance k, in scale units. */
    public static final double DEFAULT_K = 0.5;
    /** Default decision threshold h, in scale units. */
    public static final double DEFAULT_H = 8;

    private final double k;
    private final double h;

    /** The defaults: k 0.5, h 8 (see the user guide for the measured delays and false alarms). */
    public ChangePointDetector() {
        this(DEFAULT_K, DEFAULT_H);
    }

    /**
     * @param k allowance, &ge; 0, in scale units: half the shift (in scale units) the detector is tuned for
     * @param h decision threshold, &gt; 0, in scale units: larger means fewer false alarms and later detections
     */
    public ChangePointDetector(double k, double h) {
        if (!(k >= 0) || !(h > 0)) {
            throw new IllegalArgumentException("need k >= 0 and h > 0, got k=" + k + " h=" + h);
        }
        this.k = k;
        this.h = h;
    }

    /**
     * A detected shift.
     *
     * @param up             whether the value rose
     * @param before         reference level (median), metric unit
     * @param after          level since the change (median), metric unit
     * @param confidence     1 - p of a two-sided Mann-Whitney U test, after vs reference
     * @param referenceCount reference windows
     * @param afterCount     windows since the change
     * @param changeStartMs  start of the first window at the new level
     */
    public record Shift(boolean up, double before, double after, double confidence, int referenceCount, int afterCount,
                        long changeStartMs) {
        /** @return after / before - 1 */
        public double relative() {
            return after / before - 1;
        }
    }

    /**
     * Feeds one window's value.
     *
     * @param state   the series' state (updated); not null
     * @param startMs the window's start, epoch ms; a window not after the latest seen is ignored
     * @param value   the window's value, &gt; 0 (others are ignored)
     * @return the shift this value revealed, or null
     */
    public Shift accept(CusumState state, long startMs, double value) {
        if (!(value > 0) || !Double.isFinite(value) || startMs <= state.lastStart) {
            return null;
        }
        state.lastStart = startMs;
        Point p = new Point(startMs, Math.log(value));
        List<Point> recent = state.recent;
        if (recent.size() < WARM_UP + LAG) {
            add(recent, p, RECENT);
            return null;
        }
        double[] ref = logs(recent.subList(Math.max(0, recent.size() - LAG - REFERENCE), recent.size() - LAG));
        add(recent, p, RECENT);
        double center = median(ref);
        double scale = Math.max(MIN_SCALE, 1.4826 * mad(ref, center));
        double z = Math.max(-CLIP, Math.min(CLIP, (p.logValue() - center) / scale));
        if (state.up == 0) {
            state.upSince = startMs;
        }
        if (state.down == 0) {
            state.downSince = startMs;
        }
        state.up = Math.max(0, state.up + z - k);
        state.down = Math.max(0, state.down - z - k);
        boolean up = state.up > h;
        // the newest window must itself be beyond the reference on that side: a sum that is still high after one
        // outlying window (a restart, a stall) is no change
        if ((up || state.down > h) && (up ? z > k : z < -k)) {
            return fire(state, up, ref);
        }
        return null;
    }

    private static Shift fire(CusumState state, boolean up, double[] ref) {
        long since = up ? state.upSince : state.downSince;
        List<Point> excursion = state.recent.stream().filter(q -> q.startMs() >= since).toList();
        List<Point> after = excursion.subList(changeIndex(excursion, median(ref)), excursion.size());
        if (after.size() < MIN_AFTER) {
            return null; // one window at a new level is not yet a level
        }
        double[] afterLogs = logs(after);
        double p = new MannWhitneyUTest().mannWhitneyUTest(ref, afterLogs);
        if (1 - p < MIN_CONFIDENCE) {
            return null; // the windows since the change do not differ clearly from the reference (yet)
        }
        Shift shift = new Shift(up, Math.exp(median(ref)), Math.exp(median(afterLogs)), 1 - p, ref.length, after.size(),
                since);
        state.recent.clear();
        state.recent.addAll(after);
        state.up = 0;
        state.down = 0;
        return shift;
    }

    /**
     * The most likely start of the new level within the excursion: the split maximising
     * {@code (sum of (ln x - center) from there on)^2 / count} (the likelihood-ratio estimate for a step of unknown
     * size from a known level), which drops windows at the start of the excursion that only drifted by chance.
     */
    private static int changeIndex(List<Point> excursion, double center) {
        int best = 0;
        double bestStat = -1;
        double tail = 0;
        for (int i = excursion.size() - 1; i >= 0; i--) {
            tail += excursion.get(i).logValue() - center;
            double stat = tail * tail / (excursion.size() - i);
            if (stat > bestStat) {
                bestStat = stat;
                best = i;
            }
        }
        return best;
    }

    private static void add(List<Point> list, Point p, int max) {
        list.add(p);
        while (list.size() > max) {
            list.remove(0);
        }
    }

    private static double[] logs(List<Point> points) {
        return points.stream().mapToDouble(Point::logValue).toArray();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static double mad(double[] values, double center) {
        double[] d = new double[values.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.abs(values[i] - center);
        }
        return median(d);
    }
}

package io.capstream.loadgen.stop;

import java.util.Arrays;
import java.util.Locale;

/**
 * The detector of {@code --stop-on-saturation} (issue 30): says when the endpoint no longer keeps up with the load,
 * from the run's own series. It trips on the first of three signals:
 * <ol>
 *   <li><b>The client falls behind its schedule</b> (open loop): over the last {@value #WINDOW} ended requests, the
 *       client's queue time (sent minus due) grows by more than {@value #MAX_QUEUE_GROWTH} s per second of the
 *       schedule (a least-squares slope of queue time over due time), i.e. the requests start at less than
 *       1 / (1 + {@value #MAX_QUEUE_GROWTH}) = 80% of the offered rate, and the newest of them waited at least
 *       {@value #MIN_QUEUE_MS} ms: the in-flight cap is full because the endpoint does not finish requests as fast
 *       as they arrive.</li>
 *   <li><b>TTFT keeps rising</b>: over the last {@value #WINDOW} completed requests, TTFT grows by more than
 *       {@value #MAX_TTFT_GROWTH} s per second of the run (a least-squares slope of TTFT over send time) and their
 *       median TTFT is more than {@value #TTFT_FACTOR} times the median of the run's first {@value #WINDOW}
 *       completed requests: the endpoint's own queue grows.</li>
 *   <li><b>The endpoint's waiting requests keep growing</b> (only when its metrics are scraped,
 *       {@code --server-metrics}, and it exports a waiting-requests series, {@code requests_waiting}): over its last
 *       {@value #WAITING_SCRAPES} scrapes (about 1 s apart) the value never fell and grew by at least
 *       {@value #MIN_WAITING_GROWTH} requests.</li>
 * </ol>
 * Cancelled requests are ignored, failed ones count only for the queue signal. A closed loop's load waits for the
 * endpoint, so it seldom trips there (a {@code --ramp-up} past the endpoint's capacity can raise TTFT). Fed with
 * times, it reads no clock. Not thread-safe (its {@link StopRuleChecker} guards it).
 */
public final class SaturationDetector {
    /** Requests in the queue and TTFT windows, and in the TTFT baseline. */
    public static final int WINDOW = 50;
    /** Largest growth of the client's queue time per second of the schedule, s/s (start rate 80% of offered). */
    public static final double MAX_QUEUE_GROWTH = 0.25;
    /** Queue time the newest request of the window must have waited at least, ms. */
    public static final long MIN_QUEUE_MS = 500;
    /** Largest growth of TTFT per second of the run, s/s. */
    public static final double MAX_TTFT_GROWTH = 0.25;
    /** How many times the baseline the window's median TTFT must be. */
    public static final double TTFT_FACTOR = 2.0;
    /** Scrapes of the endpoint's waiting requests that must not fall. */
    public static final int WAITING_SCRAPES = 5;
    /** Growth of the endpoint's waiting requests over those scrapes, requests. */
    public static final double MIN_WAITING_GROWTH = 10;

    private final Series queue = new Series(WINDOW);
    private final Series ttft = new Series(WINDOW);
    private final long[] baseline = new long[WINDOW];
    private int baselineCount;
    private double baselineMedianNs = Double.NaN;
    private long completed;
    private final double[] waiting = new double[WAITING_SCRAPES];
    private int waitingNext;
    private int waitingFilled;

    /**
     * @param r a request that ended; not null
     * @return what is true when it shows saturation (one sentence), else null
     */
    public String ended(EndedRequest r) {
        if (r.cancelled()) {
            return null;
        }
        queue.add(r.scheduledNs(), r.queueNs());
        String why = queueSignal();
        if (why != null) {
            return why;
        }
        if (r.failed() || r.ttftNs() < 0) {
            return null;
        }
        completed++;
        if (baselineCount < WINDOW) {
            baseline[baselineCount++] = r.ttftNs();
            if (baselineCount == WINDOW) {
                baselineMedianNs = median(baseline);
            }
        }
        ttft.add(r.startNs(), r.ttftNs());
        return ttftSignal();
    }

    /**
     * @param value the endpoint's waiting requests at one scrape, in scrape order
     * @return what is true when they show saturation, else null
     */
    public String serverWaiting(double value) {
        if (!Double.isFinite(value)) {
            return null;
        }
        waiting[waitingNext] = value;
        waitingNext = (waitingNext + 1) % WAITING_SCRAPES;
        waitingFilled = Math.min(WAITING_SCRAPES, waitingFilled + 1);
        if (waitingFilled < WAITING_SCRAPES) {
            return null;
        }
        double first = waiting[waitingNext];
        double prev = first;
        for (int i = 1; i < WAITING_SCRAPES; i++) {
            double v = waiting[(waitingNext + i) % WAITING_SCRAPES];
            if (v < prev) {
                return null;
            }
            prev = v;
        }
        if (prev - first < MIN_WAITING_GROWTH) {
            return null;
        }
        return String.format(Locale.ROOT, "the endpoint's waiting requests grew from %.0f to %.0f over its last %d"
                + " scrapes without falling (limit: %.0f more)", first, prev, WAITING_SCRAPES, MIN_WAITING_GROWTH);
    }

    private String queueSignal() {
        if (!queue.full()) {
            return null;
        }
        double slope = queue.slope();
        long newest = queue.yAtLargestX();
        if (!(slope > MAX_QUEUE_GROWTH) || newest < MIN_QUEUE_MS * 1_000_000L) {
            return null;
        }
        return String.format(Locale.ROOT, "the client's queue time grew by %.0f ms per second of the schedule over"
                        + " the last %d requests, to %.2f s: they started at %.0f%% of the offered rate (limit %.0f%%)",
                slope * 1000, WINDOW, newest / 1e9, 100 / (1 + slope), 100 / (1 + MAX_QUEUE_GROWTH));
    }

    private String ttftSignal() {
        if (Double.isNaN(baselineMedianNs) || completed <= WINDOW || !ttft.full()) {
            return null;
        }
        double slope = ttft.slope();
        double median = median(ttft.ys());
        if (!(slope > MAX_TTFT_GROWTH) || !(median > TTFT_FACTOR * baselineMedianNs)) {
            return null;
        }
        return String.format(Locale.ROOT, "TTFT rose by %.0f ms per second over the last %d requests (median %.3f s,"
                        + " %.1fx the first %d requests' %.3f s; limits %.0f ms/s and %.1fx): the endpoint's queue grows",
                slope * 1000, WINDOW, median / 1e9, median / baselineMedianNs, WINDOW, baselineMedianNs / 1e9,
                MAX_TTFT_GROWTH * 1000, TTFT_FACTOR);
    }

    /** @return the median of the values (the mean of the two middle ones for an even count) */
    static double median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + (double) s[n / 2]) / 2;
    }

    /** The last {@code size} (x, y) points, ns, in a ring, with their least-squares slope. */
    static final class Series {
        private final long[] xs;
        private final long[] ys;
        private int next;
        private int filled;

        Series(int size) {
            xs = new long[size];
            ys = new long[size];
        }

        void add(long x, long y) {
            xs[next] = x;
            ys[next] = y;
            next = (next + 1) % xs.length;
            filled = Math.min(xs.length, filled + 1);
        }

        boolean full() {
            return filled == xs.length;
        }

        /** @return the points' y values (a copy) */
        long[] ys() {
            return Arrays.copyOf(ys, filled);
        }

        /** @return the y of the point with the largest x */
        long yAtLargestX() {
            int best = 0;
            for (int i = 1; i < filled; i++) {
                if (xs[i] > xs[best]) {
                    best = i;
                }
            }
            return ys[best];
        }

        /** @return dy/dx by least squares (dimensionless: both in ns); NaN when every x is the same */
        double slope() {
            double mx = 0;
            double my = 0;
            for (int i = 0; i < filled; i++) {
                mx += xs[i];
                my += ys[i];
            }
            mx /= filled;
            my /= filled;
            double sxy = 0;
            double sxx = 0;
            for (int i = 0; i < filled; i++) {
                double dx = xs[i] - mx;
                sxy += dx * (ys[i] - my);
                sxx += dx * dx;
            }
            return sxx == 0 ? Double.NaN : sxy / sxx;
        }
    }
}

package io.capstream.loadgen.run;

/**
 * Approximate running median of positive values (for the progress bar's TTFT p50): a log-bucket
 * histogram with about 1% relative error, 1 µs to ~1 h, O(1) memory and update. Thread-safe.
 */
public final class RunningMedian {
    private static final double GAMMA = 1.02;
    private static final double LOG_GAMMA = Math.log(GAMMA);
    private static final double MIN = 1e-3; // ms
    private static final int BUCKETS = (int) Math.ceil(Math.log(3.6e6 / MIN) / LOG_GAMMA) + 2;
    private final long[] counts = new long[BUCKETS];
    private long total;

    /** @param valueMs a value in ms (values below 1 µs count as 1 µs) */
    public synchronized void add(double valueMs) {
        double v = Math.max(MIN, valueMs);
        int b = (int) Math.min(BUCKETS - 1, Math.floor(Math.log(v / MIN) / LOG_GAMMA));
        counts[b]++;
        total++;
    }

    /** @return the approximate median in ms (lower middle, nearest rank), or null when empty */
    public synchronized Double median() {
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (total + 1) / 2);
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return MIN * Math.pow(GAMMA, b + 0.5);
            }
        }
        return null;
    }
}

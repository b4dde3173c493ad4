package io.capstream.aggregator.html;

import java.util.Map;

/**
 * Throughput over time in fixed buckets of the run's timeline: output tokens/s (each successful
 * request's output tokens spread evenly over [first token, end]; all at its end when the two coincide)
 * and completed requests/s (successes by the bucket of their end). The bucket is 1 s, or the smallest
 * whole number of seconds that keeps the run within {@code maxBuckets} buckets; the last bucket's rate is
 * over the part of it before the last request ended (a run of 3.5 s has a last bucket of 0.5 s).
 *
 * @param bucketS      bucket width, s
 * @param startS       each bucket's start, s since the run's start
 * @param outputTokS   output tokens/s per bucket; null when no request has a known output token count
 * @param completedRps completed requests/s per bucket
 */
public record ThroughputSeries(double bucketS, double[] startS, double[] outputTokS, double[] completedRps) {
    /**
     * @param timeline     the run's timeline; not null
     * @param outputTokens output tokens by request index (requests without a count are absent); not null
     * @param maxBuckets   the most buckets (at least 1)
     * @return the series
     */
    public static ThroughputSeries of(Timeline timeline, Map<Integer, Long> outputTokens, int maxBuckets) {
        double durationS = timeline.lastEndMs() / 1000.0;
        double bucket = Math.max(1.0, Math.ceil(durationS / maxBuckets));
        int n = Math.max(1, (int) Math.ceil(durationS / bucket));
        double[] tokens = new double[n];
        double[] completed = new double[n];
        boolean anyTokens = false;
        for (int i = 0; i < timeline.size(); i++) {
            if (timeline.failed(i) || !Double.isFinite(timeline.endMs()[i])) {
                continue;
            }
            double end = timeline.endMs()[i] / 1000.0;
            completed[bucketOf(end, bucket, n)] += 1;
            Long count = outputTokens.get(timeline.requestIndex()[i]);
            double first = timeline.firstTokenMs()[i] / 1000.0;
            if (count == null || !Double.isFinite(first)) {
                continue;
            }
            anyTokens = true;
            spread(tokens, count, Math.min(first, end), end, bucket, n);
        }
        double[] start = new double[n];
        for (int b = 0; b < n; b++) {
            start[b] = b * bucket;
            // the last bucket ends with the run: a rate over the part of it the run covered
            double width = Math.min(bucket, durationS - b * bucket);
            double per = width > 0 ? width : bucket;
            tokens[b] /= per;
            completed[b] /= per;
        }
        return new ThroughputSeries(bucket, start, anyTokens ? tokens : null, completed);
    }

    private static int bucketOf(double s, double bucket, int n) {
        return Math.min(n - 1, Math.max(0, (int) Math.floor(s / bucket)));
    }

    private static void spread(double[] into, double amount, double from, double to, double bucket, int n) {
        if (to <= from) {
            into[bucketOf(to, bucket, n)] += amount;
            return;
        }
        int first = bucketOf(from, bucket, n);
        int last = bucketOf(to, bucket, n);
        double span = to - from;
        for (int b = first; b <= last; b++) {
            double lo = Math.max(from, b * bucket);
            double hi = b == last ? to : Math.min(to, (b + 1) * bucket);
            if (hi > lo) {
                into[b] += amount * (hi - lo) / span;
            }
        }
    }
}

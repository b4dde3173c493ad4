package io.capstream.aggregator.html;

import java.util.Map;

/**
 * Throughput over time in fixed buckets of the run's timeline: output tokens/s (each successful
 * request's output tokens spread evenly over [first token, end]; all at its end when the two coincide)
 * and completed requests/s (successes by the bucket of their end). The bucket is 1 s, or the smallest
 * whole number of seconds that keeps the run within {@code maxBuckets} buckets. The run ends with its
 * last request's end, so the last bucket is usually partial: its rate is over the part of it the run
 * covered (a run of 3.5 s has a last bucket of 0.5 s), and a last part shorter than half a bucket is
 * merged into the bucket before it (a run of 3.2 s has buckets [0, 1), [1, 2), [2, 3.2]), so that one
 * request ending in a sliver of a bucket is not drawn as a spike. Bucket {@code b} spans
 * [{@code startS[b]}, {@code startS[b + 1]}), the last one [{@code startS[n - 1]}, {@code endS}].
 *
 * @param bucketS      bucket width, s (the last bucket's width is {@link #lastWidthS()})
 * @param startS       each bucket's start, s since the run's start
 * @param endS         the last bucket's end, s since the run's start (the run's last end; one bucket for an
 *                     empty or zero-length run)
 * @param outputTokS   output tokens/s per bucket; null when no request has a known output token count
 * @param completedRps completed requests/s per bucket
 */
public record ThroughputSeries(double bucketS, double[] startS, double endS, double[] outputTokS,
                               double[] completedRps) {
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
        if (n >= 2 && durationS - (n - 1) * bucket < bucket / 2) {
            n--; // a sliver of a last bucket joins the bucket before it
        }
        double endS = durationS > 0 ? durationS : bucket;
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
            // the last bucket ends with the run: a rate over the time it covers
            double width = b == n - 1 ? endS - b * bucket : bucket;
            double per = width > 0 ? width : bucket;
            tokens[b] /= per;
            completed[b] /= per;
        }
        return new ThroughputSeries(bucket, start, endS, anyTokens ? tokens : null, completed);
    }

    /** @return the last bucket's width, s (between half a bucket and one and a half buckets, or less for a short run) */
    public double lastWidthS() {
        return endS - startS[startS.length - 1];
    }

    /**
     * The x values of a step chart that draws every bucket over its real width: each bucket's start and
     * then {@link #endS()}.
     *
     * @return n + 1 edges, s
     */
    public double[] edgesS() {
        double[] x = java.util.Arrays.copyOf(startS, startS.length + 1);
        x[startS.length] = endS;
        return x;
    }

    /**
     * The y values matching {@link #edgesS()}: the rates, then the last rate again (so that the step
     * holds it to the run's end).
     *
     * @param perBucket one of this series' rate arrays; not null
     * @return n + 1 values
     */
    public static double[] stepValues(double[] perBucket) {
        double[] y = java.util.Arrays.copyOf(perBucket, perBucket.length + 1);
        y[perBucket.length] = perBucket.length == 0 ? Double.NaN : perBucket[perBucket.length - 1];
        return y;
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

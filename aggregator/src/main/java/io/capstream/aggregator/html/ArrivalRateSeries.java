package io.capstream.aggregator.html;

import io.capstream.schemas.load.RateSchedule;

/**
 * Offered against achieved arrival rate over time, for the run page's "Offered and achieved rate" chart (issue 30):
 * fixed buckets over the run's arrivals, from T0 to its last actual start (after it the run sends nothing). The
 * bucket is 1 s, or the smallest whole number of seconds that keeps the run within {@code maxBuckets} buckets; the
 * last bucket ends with the last start and its rates are over the part it covers (a last part shorter than half a
 * bucket joins the bucket before it, as in {@link ThroughputSeries}).
 *
 * <ul>
 *   <li>achieved: requests whose actual start lies in the bucket / its width, req/s;</li>
 *   <li>offered: the mean of the {@code --rate-schedule} over the bucket, (Λ(b) - Λ(a)) / (b - a)
 *       ({@link RateSchedule#expectedArrivals}), or the constant {@code --rate}.</li>
 * </ul>
 *
 * @param edgesS     bucket edges, s since T0: n + 1 values, ascending
 * @param offeredRps offered rate per bucket, req/s (n values)
 * @param achievedRps achieved start rate per bucket, req/s (n values)
 * @param bucketS    bucket width, s (the last one may differ)
 */
public record ArrivalRateSeries(double[] edgesS, double[] offeredRps, double[] achievedRps, double bucketS) {

    /**
     * @param timeline   the run's timeline; not null
     * @param schedule   the run's schedule, or null for a constant rate
     * @param rateRps    the constant offered rate, req/s (used without a schedule)
     * @param maxBuckets the most buckets (at least 1)
     * @return the series, or null when the run has no request, its starts span no time, or neither a schedule nor
     *     a rate &gt; 0 was given
     */
    public static ArrivalRateSeries of(Timeline timeline, RateSchedule schedule, Double rateRps, int maxBuckets) {
        if (timeline.size() == 0 || (schedule == null && (rateRps == null || !(rateRps > 0)))) {
            return null;
        }
        double lastS = 0;
        for (double s : timeline.startMs()) {
            lastS = Math.max(lastS, s / 1000.0);
        }
        if (!(lastS > 0)) {
            return null;
        }
        double bucket = Math.max(1.0, Math.ceil(lastS / maxBuckets));
        int n = Math.max(1, (int) Math.ceil(lastS / bucket));
        if (n >= 2 && lastS - (n - 1) * bucket < bucket / 2) {
            n--;
        }
        double[] edges = new double[n + 1];
        for (int b = 0; b < n; b++) {
            edges[b] = b * bucket;
        }
        edges[n] = lastS;
        double[] achieved = new double[n];
        for (double ms : timeline.startMs()) {
            achieved[Math.min(n - 1, Math.max(0, (int) Math.floor(ms / 1000.0 / bucket)))] += 1;
        }
        double[] offered = new double[n];
        for (int b = 0; b < n; b++) {
            double width = edges[b + 1] - edges[b];
            achieved[b] /= width;
            offered[b] = schedule == null ? rateRps
                    : (schedule.expectedArrivals(edges[b + 1]) - schedule.expectedArrivals(edges[b])) / width;
        }
        return new ArrivalRateSeries(edges, offered, achieved, bucket);
    }

    /**
     * @return the chart: steps over the buckets' real widths, offered first, then achieved
     */
    public Chart chart() {
        return new Chart("arrival-rate", "Offered and achieved arrival rate", "time since start (s)",
                "requests started/s", Chart.Kind.STEP, edgesS, java.util.List.of(
                new Chart.Series("offered req/s", ThroughputSeries.stepValues(offeredRps)),
                new Chart.Series("achieved req/s (starts)", ThroughputSeries.stepValues(achievedRps))));
    }
}

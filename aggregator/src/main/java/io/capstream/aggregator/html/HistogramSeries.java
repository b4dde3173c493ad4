package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The per-token inter-chunk latency histogram of a report
 * ({@code capstream.statistics.inter_chunk_histogram}): log buckets in ms with their counts.
 *
 * @param lowerMs each bucket's lower edge, ms, ascending
 * @param upperMs each bucket's upper edge, ms
 * @param count   gaps in each bucket
 */
public record HistogramSeries(double[] lowerMs, double[] upperMs, double[] count) {
    /**
     * @param node the histogram object; null, missing or JSON null gives null
     * @return the histogram, or null when absent or without buckets
     * @throws IllegalArgumentException when its arrays differ in length
     */
    public static HistogramSeries parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        JsonNode lo = node.path("lower_ms");
        JsonNode hi = node.path("upper_ms");
        JsonNode c = node.path("count");
        int n = lo.size();
        if (n == 0) {
            return null;
        }
        if (hi.size() != n || c.size() != n) {
            throw new IllegalArgumentException("inter_chunk_histogram arrays differ in length");
        }
        double[] l = new double[n];
        double[] u = new double[n];
        double[] k = new double[n];
        for (int i = 0; i < n; i++) {
            l[i] = lo.get(i).asDouble(Double.NaN);
            u[i] = hi.get(i).asDouble(Double.NaN);
            k[i] = c.get(i).asDouble(Double.NaN);
        }
        return new HistogramSeries(l, u, k);
    }

    /** @return the total count */
    public long total() {
        long t = 0;
        for (double v : count) {
            t += (long) v;
        }
        return t;
    }

    /**
     * @param id chart id
     * @return a BARS chart: x = bucket lower edge (ms, drawn on a log scale), y = gaps; the bucket of zero gaps
     *     ({@code [0, upper)}), which a log scale cannot place at 0, is drawn one log-bucket width (10^0.1) below
     *     its upper edge
     */
    public Chart chart(String id) {
        double[] x = lowerMs.clone();
        for (int i = 0; i < x.length; i++) {
            if (!(x[i] > 0) && upperMs[i] > 0) {
                x[i] = upperMs[i] / BUCKET_RATIO;
            }
        }
        return new Chart(id, "Per-token inter-chunk latency histogram", "inter-chunk gap (ms, bucket lower edge)",
                "gaps", Chart.Kind.BARS, x, java.util.List.of(new Chart.Series("gaps", count)));
    }

    /** Ratio of a bucket's upper to its lower edge: 10 buckets per decade. */
    private static final double BUCKET_RATIO = Math.pow(10, 0.1);
}

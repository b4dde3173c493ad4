package io.capstream.loadgen.servermetrics;

/**
 * One successful scrape.
 *
 * @param epochMs  wall clock when the response arrived, epoch ms
 * @param tMs      when the response arrived, ms after the run's T0 (monotonic clock); negative for the
 *                 baseline scrape, which ends before T0
 * @param scrapeMs duration of the GET, ms
 * @param values   value of series {@code i} of the recording's series table at index {@code i}; NaN (or an
 *                 index past the end) where this scrape lacked the series
 */
public record ServerScrape(long epochMs, double tMs, double scrapeMs, double[] values) {
    /**
     * @param i a series index
     * @return its value in this scrape, or NaN
     */
    public double value(int i) {
        return i < values.length ? values[i] : Double.NaN;
    }
}

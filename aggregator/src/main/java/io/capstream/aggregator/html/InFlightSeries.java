package io.capstream.aggregator.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Requests in flight over time, from the timeline's start and end times: a step function whose value at
 * {@code timeS[i]} holds until {@code timeS[i + 1]}. When it has more than {@code maxPoints} steps it is
 * reduced to {@code maxPoints} equal bins, each holding the most requests in flight during the bin.
 *
 * @param timeS    step (or bin start) times, s since the run's start, ascending; starts at 0
 * @param inFlight requests in flight from that time on (binned: the bin's maximum)
 * @param binS     the bin width, s; 0 when the steps are exact
 */
public record InFlightSeries(double[] timeS, double[] inFlight, double binS) {
    /**
     * @param timeline  the run's timeline; not null
     * @param maxPoints the most points (at least 2)
     * @return the series
     */
    public static InFlightSeries of(Timeline timeline, int maxPoints) {
        int n = timeline.size();
        double[][] events = new double[2 * n][];
        int k = 0;
        for (int i = 0; i < n; i++) {
            double s = timeline.startMs()[i];
            double e = timeline.endMs()[i];
            if (Double.isFinite(s) && Double.isFinite(e)) {
                events[k++] = new double[] {s / 1000.0, 1};
                events[k++] = new double[] {e / 1000.0, -1};
            }
        }
        double[][] ev = Arrays.copyOf(events, k);
        Arrays.sort(ev, (a, b) -> Double.compare(a[0], b[0]));
        List<double[]> steps = new ArrayList<>();
        steps.add(new double[] {0, 0});
        int current = 0;
        for (int i = 0; i < ev.length; ) {
            double t = ev[i][0];
            while (i < ev.length && ev[i][0] == t) {
                current += (int) ev[i][1];
                i++;
            }
            double[] last = steps.get(steps.size() - 1);
            if (last[0] == t) {
                last[1] = current;
            } else {
                steps.add(new double[] {t, current});
            }
        }
        if (steps.size() <= maxPoints) {
            double[] x = new double[steps.size()];
            double[] y = new double[steps.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = steps.get(i)[0];
                y[i] = steps.get(i)[1];
            }
            return new InFlightSeries(x, y, 0);
        }
        return binned(steps, maxPoints);
    }

    private static InFlightSeries binned(List<double[]> steps, int bins) {
        double end = steps.get(steps.size() - 1)[0];
        double width = end / bins;
        double[] x = new double[bins];
        double[] y = new double[bins];
        int p = 0;
        double value = 0;
        for (int b = 0; b < bins; b++) {
            double hi = b == bins - 1 ? Double.POSITIVE_INFINITY : (b + 1) * width;
            double max = value;
            while (p < steps.size() && steps.get(p)[0] < hi) {
                value = steps.get(p)[1];
                max = Math.max(max, value);
                p++;
            }
            x[b] = b * width;
            y[b] = max;
        }
        return new InFlightSeries(x, y, width);
    }
}

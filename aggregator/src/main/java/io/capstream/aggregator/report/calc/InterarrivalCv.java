package io.capstream.aggregator.report.calc;

import java.util.Arrays;
import java.util.List;

/**
 * The inter-arrival coefficient of variation of {@code LoadHealth} (issue 30): achieved, from the requests' actual
 * starts, and configured, from the arrival process. Pure functions.
 */
final class InterarrivalCv {
    private InterarrivalCv() {
    }

    /**
     * @param spans every request of the run; not null
     * @return stddev / mean of the gaps between consecutive actual starts (sorted), population stddev; null with
     *     fewer than 3 requests or when every request started at the same instant
     */
    static Double achieved(List<RequestSpan> spans) {
        if (spans.size() < 3) {
            return null;
        }
        long[] starts = spans.stream().mapToLong(RequestSpan::startNs).toArray();
        Arrays.sort(starts);
        int gaps = starts.length - 1;
        double mean = (double) (starts[gaps] - starts[0]) / gaps;
        if (mean <= 0) {
            return null;
        }
        double sq = 0;
        for (int i = 1; i < starts.length; i++) {
            double d = (starts[i] - starts[i - 1]) - mean;
            sq += d * d;
        }
        return Math.sqrt(sq / gaps) / mean;
    }

    /**
     * @param arrival    {@code RunStarted.arrival}: constant, poisson, gamma, closed or trace; may be null
     * @param burstiness {@code RunStarted.burstiness} (gamma shape), may be null
     * @return constant 0, poisson 1, gamma 1 / sqrt(burstiness) (null without a burstiness &gt; 0); null for closed
     *     loops, traces and other arrivals
     */
    static Double configured(String arrival, Double burstiness) {
        if (arrival == null) {
            return null;
        }
        return switch (arrival) {
            case "constant" -> 0.0;
            case "poisson" -> 1.0;
            case "gamma" -> burstiness != null && burstiness > 0 ? 1 / Math.sqrt(burstiness) : null;
            default -> null;
        };
    }
}

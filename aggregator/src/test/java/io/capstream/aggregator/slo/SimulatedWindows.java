package io.capstream.aggregator.slo;

import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Window summaries of simulated TTFTs, built as the window path does once the intervals are filled: nearest-rank
 * percentiles and the {@link QuantileInterval} of each, widened by the 1% relative accuracy of the sketch (null with
 * a reason when too few values).
 */
final class SimulatedWindows {
    static final long WINDOW_MS = 60_000;
    static final double ACCURACY = 0.01;
    /** Default lognormal TTFT spread: sigma of ln(TTFT). */
    static final double SIGMA = 0.5;
    private static final double Z95 = 1.6448536269514722;

    private final Random random;
    private final double sigma;

    SimulatedWindows(long seed) {
        this(seed, SIGMA);
    }

    /** @param sigma sigma of ln(TTFT) */
    SimulatedWindows(long seed, double sigma) {
        this.random = new Random(seed);
        this.sigma = sigma;
    }

    /** @return the lognormal median (with the default sigma) whose p95 is {@code p95} ms */
    static double medianForP95(double p95) {
        return p95 / Math.exp(Z95 * SIGMA);
    }

    /** @return the lognormal median with this generator's sigma whose p95 is {@code p95} ms */
    double median(double p95) {
        return p95 / Math.exp(Z95 * sigma);
    }

    /**
     * @param index  window number (start = index minutes)
     * @param n      requests in the window
     * @param median lognormal median of TTFT, ms
     * @return the window's summary (all requests completed and good, for the TTFT SLOs)
     */
    WindowSummary window(int index, int n, double median) {
        return window(index, n, median, Double.POSITIVE_INFINITY);
    }

    /**
     * @param index     window number (start = index minutes)
     * @param n         requests in the window
     * @param median    lognormal median of TTFT, ms
     * @param threshold per-request TTFT objective, ms: requests above it are not good (goodput)
     * @return the window's summary
     */
    WindowSummary window(int index, int n, double median, double threshold) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = median * Math.exp(sigma * random.nextGaussian());
        }
        Arrays.sort(v);
        Quantiles q = Quantiles.newBuilder().setCount(n).setP50(rank(v, 0.5)).setP95(rank(v, 0.95))
                .setP99(rank(v, 0.99)).setP50Ci(ci(v, 0.5)).setP95Ci(ci(v, 0.95)).setP99Ci(ci(v, 0.99))
                .setCiUnavailable(unavailable(v)).build();
        long good = Arrays.stream(v).filter(x -> x <= threshold).count();
        WindowSummary s = summary(index, n, 0, good);
        s.setTtftMs(q);
        return s;
    }

    /**
     * @return a summary without quantiles: {@code requests} requests of which {@code failed} failed and {@code good}
     *         were good (met every per-request SLO)
     */
    static WindowSummary summary(int index, long requests, long failed, long good) {
        long start = index * WINDOW_MS;
        return WindowSummary.newBuilder().setTarget("http://sim").setModel("m").setContextBucket("all")
                .setWindowStartMs(start).setWindowEndMs(start + WINDOW_MS).setRequests(requests)
                .setCompleted(requests - failed).setFailed(failed).setErrorRate(requests == 0 ? 0 : (double) failed / requests)
                .setPromptTokens(0).setOutputTokens(0).setOutputThroughputTokS(0).setRelativeAccuracy(ACCURACY)
                .setGoodput(requests == 0 ? null : (double) good / requests).setGoodputRequests(good).build();
    }

    private static double rank(double[] sorted, double p) {
        return sorted[(int) Math.max(0, Math.ceil(p * sorted.length) - 1)];
    }

    private static List<Double> ci(double[] sorted, double p) {
        double[] ci = QuantileInterval.of(sorted, p, QuantileInterval.DEFAULT_LEVEL);
        return ci == null ? null : List.of(ci[0] * (1 - ACCURACY), ci[1] * (1 + ACCURACY));
    }

    private static Map<String, String> unavailable(double[] sorted) {
        Map<String, String> out = new HashMap<>();
        for (double p : new double[] {0.5, 0.95, 0.99}) {
            String reason = QuantileInterval.ranks(sorted.length, p, QuantileInterval.DEFAULT_LEVEL).reason();
            if (reason != null) {
                out.put("p" + Math.round(p * 100), reason);
            }
        }
        return out.isEmpty() ? null : out;
    }

    /** @return the number of state changes in the alerts */
    static int transitions(List<io.capstream.schemas.avro.SloBreach> alerts) {
        return new ArrayList<>(alerts).size();
    }
}

package io.capstream.loadgen.arrival;

import java.util.SplittableRandom;

/**
 * Open-loop arrival times, relative to the run's T0 in ns. {@link ArrivalMode#CONSTANT}: request k
 * at {@code k / rate} s. {@link ArrivalMode#POISSON}: exponential gaps with mean {@code 1 / rate} s
 * drawn from a {@link SplittableRandom} seeded with the run seed, so a seed reproduces the schedule;
 * the first request is at 0. Not thread-safe.
 */
public final class ArrivalSchedule {
    private final ArrivalMode mode;
    private final double rateRps;
    private final SplittableRandom rng;
    private double nextS;
    private int k;

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps rate in requests per second, > 0
     * @param seed    seed of the Poisson gaps
     */
    public ArrivalSchedule(ArrivalMode mode, double rateRps, long seed) {
        if (mode == ArrivalMode.CLOSED) {
            throw new IllegalArgumentException("closed loop has no arrival schedule");
        }
        this.mode = mode;
        this.rateRps = rateRps;
        this.rng = new SplittableRandom(seed);
    }

    /** @return the scheduled start of the next request, ns after T0 (non-decreasing) */
    public long next() {
        double t;
        if (mode == ArrivalMode.CONSTANT) {
            t = k / rateRps;
        } else {
            t = nextS;
            nextS += -Math.log(1.0 - rng.nextDouble()) / rateRps;
        }
        k++;
        return (long) (t * 1e9);
    }

    /**
     * @param mode       CONSTANT or POISSON
     * @param rateRps    rate, requests/s
     * @param seed       seed
     * @param durationNs time bound, ns
     * @param max        upper bound of the count
     * @return how many arrivals fall strictly before {@code durationNs}, at most {@code max}
     */
    public static int countWithin(ArrivalMode mode, double rateRps, long seed, long durationNs, int max) {
        ArrivalSchedule s = new ArrivalSchedule(mode, rateRps, seed);
        int n = 0;
        while (n < max && s.next() < durationNs) {
            n++;
        }
        return n;
    }
}

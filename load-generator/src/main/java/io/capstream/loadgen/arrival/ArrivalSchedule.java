package io.capstream.loadgen.arrival;

import java.util.SplittableRandom;

/**
 * Open-loop arrival times, relative to the run's T0 in ns. {@link ArrivalMode#CONSTANT}: request k
 * at {@code k / rate} s. {@link ArrivalMode#POISSON}: exponential gaps with mean {@code 1 / rate} s
 * drawn from a {@link SplittableRandom} seeded with the run seed, so a seed reproduces the schedule;
 * the first request is at 0. Not thread-safe.
 *
 * <p>A share of a distributed run ({@link #ofShare}) draws the same global schedule and returns only
 * the offsets of the indices {@code i} with {@code i % shares == share}, so that N workers with the
 * same seed and rate hold the global rate together.
 */
public final class ArrivalSchedule {
    private final ArrivalMode mode;
    /** The offsets of a trace ({@link ArrivalMode#TRACE}), ns after T0, or null. */
    private final long[] offsetsNs;
    private final double rateRps;
    private final SplittableRandom rng;
    private final int share;
    private final int shares;
    private double nextS;
    private int k;

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps rate in requests per second, > 0
     * @param seed    seed of the Poisson gaps
     */
    public ArrivalSchedule(ArrivalMode mode, double rateRps, long seed) {
        this(mode, rateRps, seed, 0, 1);
    }

    private ArrivalSchedule(ArrivalMode mode, double rateRps, long seed, int share, int shares) {
        if (mode == ArrivalMode.CLOSED) {
            throw new IllegalArgumentException("closed loop has no arrival schedule");
        }
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("share must be 0.." + (shares - 1) + ", got " + share);
        }
        if (mode == ArrivalMode.TRACE) {
            throw new IllegalArgumentException("a trace's schedule is its offsets: ArrivalSchedule.ofOffsets");
        }
        this.mode = mode;
        this.rateRps = rateRps;
        this.rng = new SplittableRandom(seed);
        this.share = share;
        this.shares = shares;
        this.offsetsNs = null;
    }

    private ArrivalSchedule(long[] offsetsNs) {
        this.mode = ArrivalMode.TRACE;
        this.rateRps = 0;
        this.rng = null;
        this.share = 0;
        this.shares = 1;
        this.offsetsNs = offsetsNs.clone();
    }

    /**
     * The schedule of a trace ({@code --trace}): request k at {@code offsetsNs[k]}.
     *
     * @param offsetsNs non-decreasing offsets, ns after T0, one per request
     * @return the schedule
     * @throws IllegalArgumentException when an offset is negative or smaller than the one before
     */
    public static ArrivalSchedule ofOffsets(long[] offsetsNs) {
        for (int i = 0; i < offsetsNs.length; i++) {
            if (offsetsNs[i] < 0 || (i > 0 && offsetsNs[i] < offsetsNs[i - 1])) {
                throw new IllegalArgumentException("trace offsets must be non-decreasing and >= 0 (index " + i + ")");
            }
        }
        return new ArrivalSchedule(offsetsNs);
    }

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps the global rate, requests/s, &gt; 0
     * @param seed    seed of the Poisson gaps (the run's)
     * @param share   0-based share index, {@code 0 <= share < shares}
     * @param shares  number of shares, &gt;= 1
     * @return the schedule of the indices {@code share, share + shares, ...}: their global offsets, ns after T0
     * @throws IllegalArgumentException for a closed loop or a share outside {@code 0..shares-1}
     */
    public static ArrivalSchedule ofShare(ArrivalMode mode, double rateRps, long seed, int share, int shares) {
        return new ArrivalSchedule(mode, rateRps, seed, share, shares);
    }

    /** @return the scheduled start of the next request (of this share), ns after T0 (non-decreasing) */
    public long next() {
        if (shares == 1) {
            return nextGlobal();
        }
        while (k % shares != share) {
            nextGlobal();
        }
        return nextGlobal();
    }

    private long nextGlobal() {
        if (offsetsNs != null) {
            // past the trace's end (never asked for: the run has as many requests as offsets) the last offset repeats
            return offsetsNs[Math.min(k++, offsetsNs.length - 1)];
        }
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

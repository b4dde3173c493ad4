package io.capstream.loadgen.arrival;

import io.capstream.schemas.load.RateSchedule;
import java.util.SplittableRandom;

/**
 * Open-loop arrival times, relative to the run's T0 in ns. {@link ArrivalMode#CONSTANT}: request k
 * at {@code k / rate} s. {@link ArrivalMode#POISSON}: exponential gaps with mean {@code 1 / rate} s
 * drawn from a {@link SplittableRandom} seeded with the run seed, so a seed reproduces the schedule;
 * the first request is at 0. {@link ArrivalMode#GAMMA}: gamma gaps with mean {@code 1 / rate} s and shape
 * {@code --burstiness} ({@link GammaGaps}), seeded likewise. Not thread-safe.
 *
 * <p>With a {@code --rate-schedule} ({@link ArrivalProcess#schedule()}, issue 30) the process is drawn at rate 1 in
 * operational time u (request k at u = k, or after gaps of mean 1) and arrival u is sent at
 * {@link RateSchedule#timeOf t = Λ⁻¹(u)}: the gaps keep their distribution's shape while their mean follows the
 * schedule. When the schedule's last rate is 0 it offers a finite number of arrivals: after them {@link #next()}
 * returns {@link #END}.
 *
 * <p>A share of a distributed run ({@link #ofShare}) draws the same global schedule and returns only
 * the offsets of the indices {@code i} with {@code i % shares == share}, so that N workers with the
 * same seed and rate hold the global rate together.
 */
public final class ArrivalSchedule {
    /** What {@link #next()} returns once the schedule offers no more arrivals (a rate schedule ending at 0). */
    public static final long END = Long.MAX_VALUE;

    private final ArrivalProcess process;
    /** The offsets of a trace ({@link ArrivalMode#TRACE}), ns after T0, or null. */
    private final long[] offsetsNs;
    private final SplittableRandom rng;
    private final GammaGaps gamma;
    private final int share;
    private final int shares;
    /** Time of the next arrival, s (constant rate) or operational time u (with a schedule), for POISSON/GAMMA. */
    private double nextS;
    private int k;

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps rate in requests per second, > 0
     * @param seed    seed of the Poisson gaps
     */
    public ArrivalSchedule(ArrivalMode mode, double rateRps, long seed) {
        this(checked(mode, rateRps), seed, 0, 1);
    }

    /**
     * @param process the arrival process (mode, rate or schedule, burstiness); not null
     * @param seed    seed of the Poisson or gamma gaps (the run's)
     */
    public ArrivalSchedule(ArrivalProcess process, long seed) {
        this(process, seed, 0, 1);
    }

    private ArrivalSchedule(ArrivalProcess process, long seed, int share, int shares) {
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("share must be 0.." + (shares - 1) + ", got " + share);
        }
        this.process = process;
        this.rng = new SplittableRandom(seed);
        this.gamma = process.mode() == ArrivalMode.GAMMA ? new GammaGaps(process.burstiness()) : null;
        this.share = share;
        this.shares = shares;
        this.offsetsNs = null;
    }

    private ArrivalSchedule(long[] offsetsNs) {
        this.process = null;
        this.rng = null;
        this.gamma = null;
        this.share = 0;
        this.shares = 1;
        this.offsetsNs = offsetsNs.clone();
    }

    /** The checks of the constructors before issue 30: a closed loop or trace first, then the process's. */
    private static ArrivalProcess checked(ArrivalMode mode, double rateRps) {
        return ArrivalProcess.of(mode, rateRps);
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
        return ofShare(checked(mode, rateRps), seed, share, shares);
    }

    /**
     * @param process the run's arrival process (its global rate or schedule); not null
     * @param seed    seed of the Poisson or gamma gaps (the run's)
     * @param share   0-based share index, {@code 0 <= share < shares}
     * @param shares  number of shares, &gt;= 1
     * @return the schedule of the indices {@code share, share + shares, ...}: their global offsets, ns after T0
     * @throws IllegalArgumentException for a share outside {@code 0..shares-1}
     */
    public static ArrivalSchedule ofShare(ArrivalProcess process, long seed, int share, int shares) {
        return new ArrivalSchedule(process, seed, share, shares);
    }

    /**
     * @return the scheduled start of the next request (of this share), ns after T0 (non-decreasing), or {@link #END}
     *         when the rate schedule offers no more
     */
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
        RateSchedule schedule = process.schedule();
        // without a schedule the gaps are drawn at the rate itself (the draws before issue 30, bit for bit); with
        // one at rate 1 in operational time
        double rate = schedule == null ? process.rateRps() : 1.0;
        double t;
        if (process.mode() == ArrivalMode.CONSTANT) {
            t = k / rate;
        } else {
            t = nextS;
            double gap = process.mode() == ArrivalMode.GAMMA ? gamma.next(rng) : -Math.log(1.0 - rng.nextDouble());
            nextS += gap / rate;
        }
        k++;
        if (schedule != null) {
            t = schedule.timeOf(t);
            if (!(t * 1e9 < END)) {
                return END;
            }
        }
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
        return countWithin(checked(mode, rateRps), seed, durationNs, max);
    }

    /**
     * @param process    the arrival process; not null
     * @param seed       seed
     * @param durationNs time bound, ns; {@link Long#MAX_VALUE} for none (then a schedule ending at rate 0 ends the
     *                   count after its last arrival, and any other process at {@code max})
     * @param max        upper bound of the count
     * @return how many arrivals fall strictly before {@code durationNs}, at most {@code max}
     */
    public static int countWithin(ArrivalProcess process, long seed, long durationNs, int max) {
        ArrivalSchedule s = new ArrivalSchedule(process, seed);
        int n = 0;
        while (n < max && s.next() < durationNs) {
            n++;
        }
        return n;
    }
}

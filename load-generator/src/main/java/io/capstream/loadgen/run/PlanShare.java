package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;

/**
 * One share of a distributed run's plan ({@code capstream run --workers N}): share {@code k} of
 * {@code N} executes the request indices {@code i} with {@code i % N == k}, with its part of the
 * closed-loop concurrency ({@code c / N}, the remainder to the lowest shares), or, in an open loop,
 * at those indices' offsets in the global arrival schedule. Immutable.
 *
 * @param share  0-based share index, {@code 0 <= share < shares}
 * @param shares number of shares (workers), &gt;= 1
 */
public record PlanShare(int share, int shares) {
    /**
     * @throws IllegalArgumentException when {@code shares < 1} or {@code share} is outside {@code 0..shares-1}
     */
    public PlanShare {
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("share must be 0.." + (shares - 1) + " of " + shares + ", got " + share);
        }
    }

    /**
     * @param n planned requests of the whole run, &gt;= 0
     * @return how many of the indices {@code 0..n-1} belong to this share
     */
    public int count(int n) {
        return n > share ? (n - share - 1) / shares + 1 : 0;
    }

    /**
     * @param local the share's own 0-based request counter
     * @return the run's request index of the share's {@code local}-th request
     */
    public int globalIndex(int local) {
        return share + local * shares;
    }

    /**
     * @param index a request index of the run
     * @return whether this share executes it
     */
    public boolean owns(int index) {
        return index % shares == share;
    }

    /**
     * @param total the run's concurrency (or open-loop in-flight cap), &gt;= 0
     * @return this share's part: {@code total / shares}, plus one for the lowest {@code total % shares} shares
     */
    public int concurrency(int total) {
        return total / shares + (share < total % shares ? 1 : 0);
    }

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps the run's global rate, requests/s
     * @param seed    the run's seed
     * @return the global schedule restricted to this share's indices
     */
    public ArrivalSchedule schedule(ArrivalMode mode, double rateRps, long seed) {
        return ArrivalSchedule.ofShare(mode, rateRps, seed, share, shares);
    }

    /**
     * @param process the run's arrival process (global rate or rate schedule, burstiness); not null
     * @param seed    the run's seed
     * @return the global schedule restricted to this share's indices
     */
    public ArrivalSchedule schedule(io.capstream.loadgen.arrival.ArrivalProcess process, long seed) {
        return ArrivalSchedule.ofShare(process, seed, share, shares);
    }
}

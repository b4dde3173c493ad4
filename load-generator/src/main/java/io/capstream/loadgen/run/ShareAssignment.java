package io.capstream.loadgen.run;

/**
 * How a worker executes its share of a distributed run ({@link LoadGenerator#runShare}): which
 * share, at how many slots, from which instant, and the clock offset to report in its
 * {@code RunFinished}. Immutable.
 *
 * @param share                    the share of the plan; not null
 * @param slots                    the share's closed-loop concurrency or open-loop in-flight cap, &gt;= 1
 * @param startEpochMs             the run's shared T0 on this worker's wall clock, epoch ms (the coordinator's
 *                                 broker-clock instant plus this worker's clock offset)
 * @param clockOffsetMs            this worker's wall clock minus the broker's, ms; null when not estimated
 * @param clockOffsetUncertaintyMs half the round trip of the probe the offset comes from, ms; null when not estimated
 */
public record ShareAssignment(PlanShare share, int slots, long startEpochMs, Double clockOffsetMs,
                              Double clockOffsetUncertaintyMs) {
    /** @throws IllegalArgumentException when share is null or slots &lt; 1 */
    public ShareAssignment {
        if (share == null) {
            throw new IllegalArgumentException("share is required");
        }
        if (slots < 1) {
            throw new IllegalArgumentException("a share needs at least one slot, got " + slots);
        }
    }
}

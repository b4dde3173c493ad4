package io.capstream.loadgen.run;

import java.util.SplittableRandom;

/**
 * Which requests of a run the client cancels, and when (issue 30, {@code --cancel-rate} and {@code --cancel-after}):
 * drawn per request index from the run's seed only, so that the same run (and its {@code rerun}) cancels the same
 * requests at the same times, independent of timing, of the order requests end in and of how a distributed run is
 * shared among workers. Immutable, thread-safe.
 */
public final class CancelDraws {
    /** Returned by {@link #cancelAfterNs(int)} for a request that is not cancelled. */
    public static final long NOT_CANCELLED = -1;
    /** Keeps these draws apart from the run's other seeded draws (think time, prompt lengths). */
    private static final long SALT = 0x6A09E667F3BCC909L;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private final CancelShape shape;
    private final long seed;

    /**
     * @param shape the run's cancellation group; null = none cancelled
     * @param seed  the run's seed ({@code --seed})
     */
    public CancelDraws(CancelShape shape, long seed) {
        this.shape = shape == null ? CancelShape.NONE : shape;
        this.seed = seed;
    }

    /** @return whether some requests may be cancelled */
    public boolean active() {
        return shape.active() && shape.afterS() != null;
    }

    /**
     * @param index the request's global index, &gt;= 0
     * @return when the client closes request {@code index}'s stream, ns after its t0 (the mean {@code --cancel-after},
     *         or a normal draw with its standard deviation, clamped at 0); {@link #NOT_CANCELLED} when it is not
     *         cancelled
     */
    public long cancelAfterNs(int index) {
        if (!active()) {
            return NOT_CANCELLED;
        }
        SplittableRandom r = new SplittableRandom(seed ^ SALT ^ (index * GOLDEN));
        if (r.nextDouble() >= shape.rate()) {
            return NOT_CANCELLED;
        }
        double sd = shape.afterStddevS() == null ? 0 : shape.afterStddevS();
        double s = sd == 0 ? shape.afterS() : shape.afterS() + sd * r.nextGaussian();
        return Math.round(Math.max(0, s) * 1e9);
    }
}

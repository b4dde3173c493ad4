package io.capstream.cli.runner;

import io.capstream.cli.distributed.PlanPublisher;
import io.capstream.cli.distributed.ShareRunner;
import io.capstream.cli.distributed.ShareWatch;
import io.capstream.schemas.time.CapClock;
import java.io.PrintStream;
import java.time.Duration;

/**
 * While the report is awaited: about once a second, which shares the workers took ({@link ShareWatch}),
 * until all are; one line when they all are, one warning when some are still not taken
 * {@link #UNTAKEN_WARNING} after the start instant (fewer workers running than shares, or none), and the
 * reason to give the run up when some are still not taken {@link #UNTAKEN_GIVE_UP} after it.
 */
final class ShareLooks {
    /** A share still not taken this long after the start instant is warned about, once. */
    static final Duration UNTAKEN_WARNING = Duration.ofSeconds(10);
    /**
     * A share still not taken this long after the start instant gives the run up: no worker runs it any more (they
     * refuse a share whose start passed {@link ShareRunner#STALE_MS} ago).
     */
    static final Duration UNTAKEN_GIVE_UP = Duration.ofMillis(ShareRunner.STALE_MS).plusSeconds(5);

    private final PlanPublisher publisher;
    private final String runId;
    private final long startLocalMs;
    private final int workers;
    private final PrintStream err;
    private final String cmd;
    private final CapClock clock;
    private long nextLookMs;
    private boolean done;
    private boolean warned;

    /**
     * @param publisher    asks Kafka which shares the workers took
     * @param runId        the run
     * @param workers      N, the number of shares
     * @param startLocalMs the shared start instant on this clock, epoch ms
     * @param err          where the lines go
     * @param cmd          the command's name for those lines
     * @param clock        the clock of the looks (one a second) and of the untaken-share bounds
     */
    ShareLooks(PlanPublisher publisher, String runId, int workers, long startLocalMs, PrintStream err, String cmd,
               CapClock clock) {
        this.clock = clock;
        this.publisher = publisher;
        this.runId = runId;
        this.workers = workers;
        this.startLocalMs = startLocalMs;
        this.err = err;
        this.cmd = cmd;
    }

    /** @return the run whose shares are looked at */
    String runId() {
        return runId;
    }

    /** @return why the run is given up, or null */
    String look() throws InterruptedException {
        long now = clock.millis();
        if (done || now < nextLookMs) {
            return null;
        }
        nextLookMs = now + 1000;
        ShareWatch.Status s = publisher.shares(runId, workers);
        if (s == null) {
            return null;
        }
        if (s.allTaken()) {
            done = true;
            err.println(cmd + ": run " + runId + ": all " + workers + " " + s.describe());
            return null;
        }
        String giveUp = untakenTooLong(now, startLocalMs, s);
        if (giveUp != null) {
            return giveUp;
        }
        if (!warned && now - startLocalMs > UNTAKEN_WARNING.toMillis()) {
            warned = true;
            err.println(cmd + ": run " + runId + ": " + UNTAKEN_WARNING.toSeconds() + " s after the start, share(s) "
                    + s.notTaken() + " of " + workers + " not taken by a worker yet (" + s.describe() + "); start a"
                    + " 'capstream worker' on this Kafka for each share; still waiting up to "
                    + UNTAKEN_GIVE_UP.toSeconds() + " s after the start");
        }
        return null;
    }

    /**
     * @param nowMs        this clock, epoch ms
     * @param startLocalMs the shared start instant on this clock, epoch ms
     * @param s            the shares' status; not null
     * @return why the run cannot complete when some share is still not taken {@link #UNTAKEN_GIVE_UP} after the
     *         start instant (no worker would run it then: a worker refuses a share whose start passed
     *         {@link ShareRunner#STALE_MS} ago), else null
     */
    static String untakenTooLong(long nowMs, long startLocalMs, ShareWatch.Status s) {
        if (s.allTaken() || nowMs - startLocalMs < UNTAKEN_GIVE_UP.toMillis()) {
            return null;
        }
        return "share(s) " + s.notTaken() + " of " + s.shares() + " not taken by a worker " + UNTAKEN_GIVE_UP.toSeconds()
                + " s after the start (" + s.describe() + "); a worker refuses a share whose start passed "
                + ShareRunner.STALE_MS / 1000 + " s ago";
    }
}

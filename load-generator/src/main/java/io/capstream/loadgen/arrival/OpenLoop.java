package io.capstream.loadgen.arrival;

import io.vertx.core.Context;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * Open loop: request k is due at its scheduled time from an {@link ArrivalSchedule}, whether or not
 * earlier requests have ended. When {@code slots} (max in flight) requests are already running, a
 * due request waits in a FIFO; the time from its scheduled start to its actual start is recorded as
 * client queue time, and the scheduled start is kept, so latency measured from the schedule has no
 * coordinated omission. A timer on one context releases due requests (about 1 ms resolution; the
 * lateness is part of the recorded queue time). A schedule that offers no more arrivals ({@link ArrivalSchedule#END})
 * ends the run like its last planned request. Time and timers come from an {@link ArrivalClock}.
 * Thread-safe.
 */
public final class OpenLoop {
    private final DriverConfig config;
    private final RequestLauncher launcher;
    private final ArrivalSchedule schedule;
    private final Context timerContext;
    private final ArrivalClock clock;
    private final CompletableFuture<Integer> drained = new CompletableFuture<>();
    private final Object lock = new Object();
    private final ArrayDeque<long[]> waiting = new ArrayDeque<>();
    private int inFlight;
    private int dispatched;
    private int started;
    private boolean noMore;
    private long nextDue;

    /**
     * @param config   driver settings ({@code slots} = max in flight)
     * @param schedule arrival times
     * @param launcher starts requests
     */
    public OpenLoop(DriverConfig config, ArrivalSchedule schedule, RequestLauncher launcher) {
        this(config, schedule, launcher, ArrivalClock.SYSTEM);
    }

    /**
     * @param config   driver settings ({@code slots} = max in flight; {@code t0Ns} and
     *                 {@code deadlineNs} on the clock's scale)
     * @param schedule arrival times
     * @param launcher starts requests
     * @param clock    time source and timers; {@link ArrivalClock#SYSTEM} in a run
     */
    public OpenLoop(DriverConfig config, ArrivalSchedule schedule, RequestLauncher launcher, ArrivalClock clock) {
        this.config = config;
        this.launcher = launcher;
        this.schedule = schedule;
        this.timerContext = config.contexts().get(0);
        this.clock = clock;
    }

    /** @return a future completed, with the number of requests started, when all have ended */
    public CompletableFuture<Integer> start() {
        nextDue = schedule.next();
        timerContext.runOnContext(v -> tick());
        return drained;
    }

    private void tick() {
        long nowNs = clock.nanoTime();
        long now = nowNs - config.t0Ns();
        boolean stop = config.stop().getAsBoolean() || nowNs >= config.deadlineNs();
        synchronized (lock) {
            if (stop) {
                noMore = true;
                waiting.clear();
            }
            while (!noMore && dispatched < config.requests() && nextDue <= now) {
                waiting.add(new long[] {dispatched, nextDue});
                dispatched++;
                if (dispatched < config.requests()) {
                    nextDue = schedule.next();
                }
            }
            // a rate schedule ending at 0 may offer fewer arrivals than planned: the run ends after its last one
            if (dispatched >= config.requests() || nextDue == ArrivalSchedule.END) {
                noMore = true;
            }
        }
        release();
        boolean more;
        synchronized (lock) {
            more = !noMore;
        }
        if (more) {
            // at most 100 ms, so that a stop request is noticed promptly even at very low rates
            long delayMs = Math.min(100, Math.max(1, (nextDue - (clock.nanoTime() - config.t0Ns())) / 1_000_000));
            clock.setTimer(timerContext, delayMs, this::tick);
        } else {
            checkDrained();
        }
    }

    private void release() {
        while (true) {
            long[] r;
            synchronized (lock) {
                if (inFlight >= config.slots() || waiting.isEmpty()) {
                    return;
                }
                if (config.stop().getAsBoolean()) {
                    waiting.clear();
                    noMore = true;
                    return;
                }
                r = waiting.poll();
                inFlight++;
                started++;
            }
            int idx = (int) r[0];
            Context ctx = config.contexts().get(idx % config.contexts().size());
            long scheduled = r[1];
            ctx.runOnContext(v -> launcher.launch(idx, scheduled, ctx, this::ended));
        }
    }

    private void ended() {
        synchronized (lock) {
            inFlight--;
        }
        release();
        checkDrained();
    }

    private void checkDrained() {
        synchronized (lock) {
            if (!noMore || inFlight > 0 || !waiting.isEmpty()) {
                return;
            }
        }
        drained.complete(started);
    }
}

package io.capstream.loadgen.arrival;

import io.vertx.core.Context;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The reference's closed loop (spec §5): {@code slots} workers; each takes the next request index
 * (in index order) when its previous request has ended. No think time, and by default no ramp: every
 * slot takes its first request at T0; on one event loop those first requests start one after the
 * other, each after the loop handled its ready I/O ({@link IoYield}), so that a request's t0 is
 * taken when the client really starts it, as with the reference's thread per request. With a ramp-up ({@link DriverConfig#rampUpNs()}, a deviation
 * from the reference) slot k of c takes its first one {@code k x rampUp / c} after T0. The scheduled
 * start of a request is the moment its slot took it, so its client queue time is only the
 * prompt/body preparation. Time and ramp-up timers come from an {@link ArrivalClock}. Thread-safe.
 */
public final class ClosedLoop {
    private final DriverConfig config;
    private final RequestLauncher launcher;
    private final IoYield yield;
    private final ArrivalClock clock;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger activeSlots = new AtomicInteger();
    private final CompletableFuture<Integer> drained = new CompletableFuture<>();
    private static final int RAMP_WAITING = 0;
    private static final int RAMP_STARTED = 1;
    private static final int RAMP_CANCELLED = 2;
    /** Per slot: waiting for its ramp-up start, started, or ended before it started. */
    private AtomicIntegerArray rampState;
    /** Per slot: its ramp-up timer id, or -1 before the timer is set. */
    private AtomicLongArray rampTimers;
    private final AtomicBoolean rampCancelled = new AtomicBoolean();

    /**
     * @param config   driver settings ({@code slots} = concurrency)
     * @param launcher starts requests
     */
    public ClosedLoop(DriverConfig config, RequestLauncher launcher) {
        this(config, launcher, IoYield.EVENT_LOOP);
    }

    /**
     * @param config   driver settings ({@code slots} = concurrency)
     * @param launcher starts requests
     * @param yield    how slots that start at T0 on one context are spaced: the next one after the
     *                 event loop's ready I/O ({@link IoYield#EVENT_LOOP}) or at once ({@link IoYield#NONE})
     */
    public ClosedLoop(DriverConfig config, RequestLauncher launcher, IoYield yield) {
        this(config, launcher, yield, ArrivalClock.SYSTEM);
    }

    /**
     * @param config   driver settings ({@code slots} = concurrency; {@code t0Ns} and
     *                 {@code deadlineNs} on the clock's scale)
     * @param launcher starts requests
     * @param yield    how slots that start at T0 on one context are spaced (see above)
     * @param clock    time source and ramp-up timers; {@link ArrivalClock#SYSTEM} in a run
     */
    public ClosedLoop(DriverConfig config, RequestLauncher launcher, IoYield yield, ArrivalClock clock) {
        this.config = config;
        this.launcher = launcher;
        this.yield = yield;
        this.clock = clock;
    }

    /**
     * Starts the slots.
     *
     * @return a future completed, with the number of requests started, when no request is in
     *         flight and none will start any more
     */
    public CompletableFuture<Integer> start() {
        int slots = Math.max(1, Math.min(config.slots(), config.requests()));
        activeSlots.set(slots);
        rampState = new AtomicIntegerArray(slots);
        rampTimers = new AtomicLongArray(slots);
        int[] atT0 = new int[config.contexts().size()]; // slots per context that start at T0
        for (int s = 0; s < slots; s++) {
            Context ctx = config.contexts().get(s % config.contexts().size());
            long delayMs = config.rampUpNs() <= 0 ? 0
                    : Math.max(0, (config.t0Ns() + config.rampUpNs() * s / slots - clock.nanoTime()) / 1_000_000L);
            if (delayMs == 0) {
                rampState.set(s, RAMP_STARTED);
                atT0[s % atT0.length]++;
            } else {
                int slot = s;
                rampTimers.set(slot, -1);
                // setTimer on the slot's own context thread makes the timer fire on that context.
                ctx.runOnContext(v -> {
                    if (rampState.get(slot) == RAMP_WAITING) {
                        rampTimers.set(slot, clock.setTimer(ctx, delayMs, () -> {
                            if (rampState.compareAndSet(slot, RAMP_WAITING, RAMP_STARTED)) {
                                takeNext(ctx);
                            }
                        }));
                    }
                });
            }
        }
        for (int c = 0; c < atT0.length; c++) {
            if (atT0[c] > 0) {
                Context ctx = config.contexts().get(c);
                int n = atT0[c];
                ctx.runOnContext(v -> startAtT0(ctx, n));
            }
        }
        return drained;
    }

    /**
     * Starts the first request of one of the {@code remaining} slots of {@code ctx} that start at
     * T0, then the next slot after the event loop's ready I/O (see {@link IoYield}).
     */
    private void startAtT0(Context ctx, int remaining) {
        takeNext(ctx);
        if (remaining > 1) {
            yield.afterIo(ctx, () -> startAtT0(ctx, remaining - 1));
        }
    }

    private void takeNext(Context ctx) {
        while (true) {
            if (config.stop().getAsBoolean() || clock.nanoTime() >= config.deadlineNs()) {
                slotDone();
                cancelRamp(ctx);
                return;
            }
            int idx = next.getAndIncrement();
            if (idx >= config.requests()) {
                slotDone();
                cancelRamp(ctx);
                return;
            }
            long scheduled = clock.nanoTime() - config.t0Ns();
            launcher.launch(idx, scheduled, ctx, () -> {
                if (Context.isOnEventLoopThread() && ctx == io.vertx.core.Vertx.currentContext()) {
                    takeNext(ctx);
                } else {
                    ctx.runOnContext(v -> takeNext(ctx));
                }
            });
            return;
        }
    }

    /**
     * Once one slot finds nothing more to do (every request taken, the duration over, or a stop),
     * no slot still waiting for its ramp-up start would find anything either: they are ended now
     * instead of when their timers fire.
     */
    private void cancelRamp(Context ctx) {
        if (!rampCancelled.compareAndSet(false, true)) {
            return; // every slot calls this when it ends: only the first one walks the slots
        }
        for (int s = 0; s < rampState.length(); s++) {
            if (rampState.compareAndSet(s, RAMP_WAITING, RAMP_CANCELLED)) {
                long timer = rampTimers.get(s);
                if (timer >= 0) {
                    clock.cancelTimer(ctx, timer);
                }
                slotDone();
            }
        }
    }

    private void slotDone() {
        if (activeSlots.decrementAndGet() == 0) {
            drained.complete(Math.min(next.get(), config.requests()));
        }
    }
}

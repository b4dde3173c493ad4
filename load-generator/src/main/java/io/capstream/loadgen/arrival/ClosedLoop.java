package io.capstream.loadgen.arrival;

import io.vertx.core.Context;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The reference's closed loop (spec §5): {@code slots} workers; each takes the next request index
 * (in index order) when its previous request has ended. No think time, and by default no ramp: every
 * slot takes its first request at T0. With a ramp-up ({@link DriverConfig#rampUpNs()}, a deviation
 * from the reference) slot k of c takes its first one {@code k x rampUp / c} after T0.
 *
 * <p>On one event loop, requests start one per turn, each turn after the loop handled its ready I/O
 * ({@link IoYield}): the first requests of the slots that start at T0, and the next requests of
 * slots whose requests ended together (a closed loop's waves: requests that started together end
 * together). So a request's t0 is taken when the client really starts it, as with the reference's
 * thread per request, and its connect and upload are not held up by the other slots' starts and
 * ends: at 64 streams, with the next request started inside the previous one's end, a wave's
 * connections waited up to ~7 ms after their SYN-ACK for the ends and starts queued before them
 * (bench/fidelity, CAPTURE=1). A slot's wait for its turn is client queue time: the scheduled start of
 * a next request is the moment its slot's previous request ended; that of a first request is the
 * moment its slot took it (T0 or its ramp-up time plus the starts before it). Time and ramp-up timers
 * come from an {@link ArrivalClock}. Thread-safe; each context's turn queue is used on its own thread.
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
    /** Per context: slots waiting for their turn to start a request (see {@link Turns}). */
    private final Map<Context, Turns> turns = new IdentityHashMap<>();
    /** Slots, over all contexts, whose request ended and that wait for their turn to take the next one. */
    private final AtomicInteger waiting = new AtomicInteger();

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
        for (Context ctx : config.contexts()) {
            turns.put(ctx, new Turns(ctx));
        }
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
     * @return slots whose request ended and that wait for their turn to start the next one, while
     *         requests remain to be taken (at most as many as remain); 0 once every request was taken.
     *         A progress display counts them in flight: at concurrency N it shows N between a wave's
     *         ends and its next starts, as with the next request started inside the previous one's end
     */
    public int waitingForTurn() {
        int remaining = config.requests() - next.get();
        return remaining <= 0 ? 0 : Math.min(remaining, waiting.get());
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
        takeNext(ctx, -1);
    }

    /**
     * @param freedNs when the slot became free (its previous request ended), on the clock's scale; -1
     *                for now
     */
    private void takeNext(Context ctx, long freedNs) {
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
            long scheduled = (freedNs >= 0 ? freedNs : clock.nanoTime()) - config.t0Ns();
            launcher.launch(idx, scheduled, ctx, () -> {
                long ended = clock.nanoTime();
                Turns t = turns.get(ctx);
                if (Context.isOnEventLoopThread() && ctx == io.vertx.core.Vertx.currentContext()) {
                    t.add(ended);
                } else {
                    ctx.runOnContext(v -> t.add(ended));
                }
            });
            return;
        }
    }

    /**
     * One context's slots whose requests ended and that wait for their turn to take the next one, in
     * the order they ended: one per event-loop turn, after the loop's ready I/O ({@link IoYield}). Used
     * only on the context's own thread. (Letting a turn start more while it was under 0.5 ms cut the
     * slots' wait at 64 streams, but doubled the client's part of TTFT p99 at 256: bench/fidelity.)
     */
    private final class Turns {
        private final Context ctx;
        private final ArrayDeque<Long> freedAt = new ArrayDeque<>();
        private boolean scheduled;

        Turns(Context ctx) {
            this.ctx = ctx;
        }

        /** @param freedNs when the slot's request ended, on the clock's scale */
        void add(long freedNs) {
            waiting.incrementAndGet();
            freedAt.add(freedNs);
            if (!scheduled) {
                scheduled = true;
                yield.afterIo(ctx, this::next);
            }
        }

        private void next() {
            Long freed = freedAt.poll();
            try {
                if (freed != null) {
                    try {
                        takeNext(ctx, freed);
                    } finally {
                        waiting.decrementAndGet(); // after the launch counted its request in flight
                    }
                }
            } finally {
                if (freedAt.isEmpty()) {
                    scheduled = false;
                } else {
                    yield.afterIo(ctx, this::next);
                }
            }
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

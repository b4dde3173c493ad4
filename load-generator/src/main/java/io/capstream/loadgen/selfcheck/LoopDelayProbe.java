package io.capstream.loadgen.selfcheck;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A jHiccup-style probe of the event loops that stamp stream chunks: on each given context a one-shot timer is
 * re-armed every time it fires, and how late it fired (actual − due, ns) goes into that loop's HdrHistogram. A
 * loop busy with other work, a GC pause, or a descheduled thread shows up as delay; the delay is the time a chunk
 * arriving then would have waited before its {@code System.nanoTime()} stamp. Each histogram is written only on
 * its own loop.
 *
 * <p><b>Period.</b> {@value #BUSY_PERIOD_MS} ms while the loop is busy (its thread was on CPU for at least
 * {@value #BUSY_SHARE} of the wall clock since the previous fire), {@value #IDLE_PERIOD_MS} ms while it is idle.
 * On a busy loop short stalls (a burst of chunks, a wave of connects) are what delays stamps, and the 1 ms timer
 * resolves them. On an idle loop the only delay is the OS waking the thread, which the slower timer samples just
 * as well; there the 1 ms timer was most of the client's CPU: each fire is a wake-up of an idle thread. Against
 * llama-server (4 streams, 2 event loops, ~250 chunks/s per loop) the event loops used 244-329 ms of CPU during a
 * run with the 1 ms timer, 119-175 ms without any, and 174-196 ms with this one; with the 1 ms timer the self-check
 * said in 3 of 4 runs that capstream took 5% of the busy machine's CPU from the engine, with this one in none
 * (bench/fidelity README, 2026-12-04).
 *
 * <p><b>Weights.</b> So that the percentiles stay shares of the run's time whatever the period, a fire's delay
 * {@code d} counts once per ms of its period (the period it stands for), and a stall is filled in at 1 ms steps
 * (d − 1 ms, d − 2 ms, ... down to 1 ms, once each: the fires a 1 ms timer would have had during it, jHiccup's
 * correction for coordinated omission). With a 1 ms period this is exactly jHiccup's
 * {@code recordValueWithExpectedInterval(d, 1 ms)}. A stall of {@value #IDLE_PERIOD_MS} ms or more is always seen;
 * a shorter one with probability length / period, so short stalls are sampled, not missed in the percentiles
 * (the max may miss a short stall on an idle loop). One seen stall of an idle loop weighs its whole period, so in a
 * run of a few hundred ms on a loaded machine a single late fire can set the p99 (then p99 = max). Counting a late
 * fire as jHiccup does and the rest of its period at the loop's usual delay avoids that, but it undercounts the
 * steady waits for a core beside a busy local engine (llama-server, 4 streams: delay p99 1.9 ms against the 1 ms
 * timer's 3.0-3.4 ms, where this weighting gave 3.4-4.3 ms), so the time weighting stays. The NIO selector rounds
 * timeouts up to whole milliseconds (an idle loop then shows up to about 1 ms of delay); the epoll transport does
 * not.
 */
public final class LoopDelayProbe {
    /** Timer period while the loop is busy, ms. */
    static final long BUSY_PERIOD_MS = 1;
    /** Timer period while the loop is idle, ms. */
    static final long IDLE_PERIOD_MS = 10;
    /** Share of the wall clock the loop's thread must be on CPU between two fires to count as busy. */
    static final double BUSY_SHARE = 0.10;
    private static final long MS = 1_000_000L;
    /** Largest delay recorded exactly, ns (60 s); larger ones are clamped. */
    private static final long MAX_TRACKABLE_NS = 60_000_000_000L;

    private final Vertx vertx;
    private final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    private final List<Loop> loops = new ArrayList<>();

    /**
     * The probe's decisions for one loop, apart from the timer and the clocks (so that they can be driven with
     * given times): when the next fire is due, how a fire is recorded and which period comes next. Touched only
     * on its loop's thread.
     */
    static final class Fires {
        final Histogram histogram = new Histogram(MAX_TRACKABLE_NS, 3);
        long periodMs = BUSY_PERIOD_MS;
        long dueNs;
        long armedNs;
        long armedCpuNs;
        long fires;

        /**
         * Arms the next fire.
         *
         * @param nowNs monotonic clock, ns
         * @param cpuNs the loop thread's CPU time, ns, or -1 when unknown
         * @return the period to wait, ms
         */
        long arm(long nowNs, long cpuNs) {
            armedNs = nowNs;
            armedCpuNs = cpuNs;
            dueNs = nowNs + periodMs * MS;
            return periodMs;
        }

        /**
         * Records a fire (its delay, weighted by its period) and arms the next one.
         *
         * @param nowNs monotonic clock when the timer ran, ns
         * @param cpuNs the loop thread's CPU time then, ns, or -1 when unknown
         * @return the period to wait for the next fire, ms
         */
        long fired(long nowNs, long cpuNs) {
            fires++;
            record(histogram, Math.min(MAX_TRACKABLE_NS, Math.max(0, nowNs - dueNs)), periodMs);
            periodMs = nextPeriodMs(cpuNs - armedCpuNs, nowNs - armedNs, armedCpuNs >= 0 && cpuNs >= 0);
            return arm(nowNs, cpuNs);
        }
    }

    /** One context's timer and its {@link Fires}; touched only on that context's event loop. */
    private final class Loop {
        final Context ctx;
        final Fires fires = new Fires();
        volatile Thread thread;
        long timerId = -1;
        boolean stopped;

        Loop(Context ctx) {
            this.ctx = ctx;
        }

        void arm(long now, long cpuNs) {
            timerId = vertx.setTimer(fires.arm(now, cpuNs), this::fired);
        }

        void fired(long id) {
            if (stopped) {
                return;
            }
            timerId = vertx.setTimer(fires.fired(System.nanoTime(), threadCpuNs()), this::fired);
        }
    }

    /**
     * @param vertx    the Vert.x instance of the contexts
     * @param contexts event-loop contexts to probe (those that carry the run's requests); not empty
     */
    public LoopDelayProbe(Vertx vertx, List<Context> contexts) {
        this.vertx = vertx;
        contexts.forEach(c -> loops.add(new Loop(c)));
    }

    /**
     * Records one fire: its delay once per ms of its period, and the stall filled in at 1 ms steps (see the class
     * comment).
     *
     * @param h        the loop's histogram, ns
     * @param delayNs  how late the fire ran, ns, &ge; 0
     * @param periodMs the period the fire ended, ms, &ge; 1
     */
    static void record(Histogram h, long delayNs, long periodMs) {
        if (periodMs > 1) {
            h.recordValueWithCount(delayNs, periodMs - 1);
        }
        h.recordValueWithExpectedInterval(delayNs, MS);
    }

    /**
     * @param cpuNs     CPU time of the loop's thread since the previous arm, ns
     * @param wallNs    wall clock since the previous arm, ns
     * @param cpuKnown  whether the thread's CPU time could be read (else the busy period is kept)
     * @return {@value #BUSY_PERIOD_MS} ms when the thread was on CPU for at least {@value #BUSY_SHARE} of the wall
     *         clock (or its CPU time is unknown), else {@value #IDLE_PERIOD_MS} ms
     */
    static long nextPeriodMs(long cpuNs, long wallNs, boolean cpuKnown) {
        if (!cpuKnown || wallNs <= 0) {
            return BUSY_PERIOD_MS;
        }
        return cpuNs >= BUSY_SHARE * wallNs ? BUSY_PERIOD_MS : IDLE_PERIOD_MS;
    }

    private long threadCpuNs() {
        return cpu.isCurrentThreadCpuTimeSupported() ? cpu.getCurrentThreadCpuTime() : -1;
    }

    /**
     * Starts the timers, one per context, each at the busy period.
     *
     * @return completes once every loop's timer is armed (and its thread is known)
     */
    public Future<Void> start() {
        List<Future<Void>> armed = new ArrayList<>();
        for (Loop l : loops) {
            Promise<Void> p = Promise.promise();
            l.ctx.runOnContext(v -> {
                l.thread = Thread.currentThread();
                l.arm(System.nanoTime(), threadCpuNs());
                p.complete();
            });
            armed.add(p.future());
        }
        return Future.all(armed).mapEmpty();
    }

    /** @return the event-loop threads of the probed contexts (known after {@link #start()} completed) */
    public List<Thread> threads() {
        List<Thread> t = new ArrayList<>();
        loops.forEach(l -> {
            if (l.thread != null) {
                t.add(l.thread);
            }
        });
        return t;
    }

    /** @return timer fires so far, over all loops; read it after {@link #stop()} completed */
    long fires() {
        long n = 0;
        for (Loop l : loops) {
            n += l.fires.fires;
        }
        return n;
    }

    /**
     * Stops the timers and merges the loops' histograms.
     *
     * @return the delays of every loop, ns; the total count is the probed time in ms (see the class comment)
     */
    public Future<Histogram> stop() {
        List<Future<Histogram>> parts = new ArrayList<>();
        for (Loop l : loops) {
            Promise<Histogram> p = Promise.promise();
            l.ctx.runOnContext(v -> {
                l.stopped = true;
                if (l.timerId >= 0) {
                    vertx.cancelTimer(l.timerId);
                }
                p.complete(l.fires.histogram.copy());
            });
            parts.add(p.future());
        }
        return Future.all(parts).map(cf -> {
            Histogram all = new Histogram(MAX_TRACKABLE_NS, 3);
            for (int i = 0; i < cf.size(); i++) {
                all.add(cf.<Histogram>resultAt(i));
            }
            return all;
        });
    }
}

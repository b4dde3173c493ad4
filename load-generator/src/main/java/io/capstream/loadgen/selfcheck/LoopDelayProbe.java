package io.capstream.loadgen.selfcheck;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A jHiccup-style probe of the event loops that stamp stream chunks: on each given context a
 * {@value #PERIOD_MS} ms one-shot timer is re-armed every time it fires, and how late it fired (actual − due, ns) goes
 * into that loop's HdrHistogram. A loop busy with other work, a GC pause, or a descheduled thread
 * shows up as delay; the delay is the time a chunk arriving then would have waited before its
 * {@code System.nanoTime()} stamp. A late fire of d ms is recorded with the fires it swallowed
 * (HdrHistogram's {@code recordValueWithExpectedInterval}, as jHiccup does), so the percentiles are
 * shares of the run's time. The NIO selector rounds timeouts up to whole milliseconds (an idle loop
 * then shows up to about 1 ms of delay); the epoll transport does not. Each histogram is written
 * only on its own loop. A stall of {@value #PERIOD_MS} ms or more is always seen; a shorter one with
 * probability length / period, so short stalls are sampled, not missed in the percentiles.
 *
 * <p>Cost: one wake-up per period per probed loop; in this VM a wake-up of an idle thread costs
 * 25-80 µs of CPU. With the 1 ms period the issue asks for, the probe took 40-50% of the event
 * loops' CPU in a 4-stream run (oracle target, 360 chunks/s: 1,400-1,840 ms of event-loop CPU in
 * 15 s with it, 790-900 ms without); with a 5 ms period, 1,150-1,160 ms.
 */
public final class LoopDelayProbe {
    /** Timer period, ms. */
    static final long PERIOD_MS = 1;
    private static final long PERIOD_NS = PERIOD_MS * 1_000_000L;
    /** Largest delay recorded exactly, ns (60 s); larger ones are clamped. */
    private static final long MAX_TRACKABLE_NS = 60_000_000_000L;

    private final Vertx vertx;
    private final List<Loop> loops = new ArrayList<>();

    /** One context's timer and histogram; touched only on that context's event loop. */
    private final class Loop {
        final Context ctx;
        final Histogram histogram = new Histogram(MAX_TRACKABLE_NS, 3);
        volatile Thread thread;
        long timerId = -1;
        long dueNs;
        boolean stopped;

        Loop(Context ctx) {
            this.ctx = ctx;
        }

        void arm() {
            dueNs = System.nanoTime() + PERIOD_NS;
            timerId = vertx.setTimer(PERIOD_MS, this::fired);
        }

        void fired(long id) {
            if (stopped) {
                return;
            }
            long late = System.nanoTime() - dueNs;
            // a stall of d ms also stands for the d - 1 timer fires it swallowed (jHiccup's correction for
            // coordinated omission), so the percentiles are shares of the run's time, not of the fires
            histogram.recordValueWithExpectedInterval(Math.min(MAX_TRACKABLE_NS, Math.max(0, late)), PERIOD_NS);
            arm();
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
     * Starts the timers, one per context.
     *
     * @return completes once every loop's timer is armed (and its thread is known)
     */
    public Future<Void> start() {
        List<Future<Void>> armed = new ArrayList<>();
        for (Loop l : loops) {
            Promise<Void> p = Promise.promise();
            l.ctx.runOnContext(v -> {
                l.thread = Thread.currentThread();
                l.arm();
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

    /**
     * Stops the timers and merges the loops' histograms.
     *
     * @return the delays of every loop, ns
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
                p.complete(l.histogram.copy());
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

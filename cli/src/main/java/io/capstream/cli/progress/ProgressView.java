package io.capstream.cli.progress;

import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunProgress;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows a run's progress: a progress bar (done/total, failures, running TTFT p50) when stdout is a
 * terminal, plain lines every {@code intervalS} seconds otherwise, e.g. {@code capstream: 120/300
 * done (42 s), failed 0, in flight 20, TTFT p50 41.5 ms} (the time is since the run's start, read
 * when the line is printed). Once every request has ended and the run waits for its events to
 * reach Kafka ({@link #onAwaitingDelivery}), it says so: {@code capstream: all 300 requests done;
 * waiting for Kafka to acknowledge 77 events (12 s)} (the count from {@link #watchDelivery}, the
 * time since the wait began); while the embedded Kafka is still starting ({@link #watchKafkaStart}) it names the
 * step instead: {@code all 300 requests done; starting the embedded Kafka broker, 77 events held (3 s)}, then
 * {@code creating the topics}, {@code starting the report aggregator}, {@code opening the report waiter and the
 * producer}. The listener
 * callbacks only store state (they run on event loops and
 * must not block); drawing happens on the progress bar's own thread or on a daemon printer thread.
 * Close it when the run ends.
 */
public final class ProgressView implements RunListener, AutoCloseable {
    private final boolean terminal;
    private final PrintStream out;
    private final long intervalS;
    private final LongSupplier clock;
    private final AtomicReference<RunProgress> latest = new AtomicReference<>();
    private volatile LongSupplier pendingEvents;
    private volatile Supplier<String> kafkaStart;
    private volatile long startedNs;
    private volatile int planned;
    private volatile long awaitingSinceNs = -1;
    private volatile int requestsEnded;
    private volatile ProgressBar bar;
    private ScheduledExecutorService printer;

    /**
     * @param terminal  true to draw a progress bar (stdout is a terminal)
     * @param out       where plain lines go
     * @param intervalS seconds between plain lines (&gt;= 1)
     */
    public ProgressView(boolean terminal, PrintStream out, long intervalS) {
        this(terminal, out, intervalS, System::nanoTime);
    }

    /**
     * @param terminal  true to draw a progress bar
     * @param out       where plain lines go
     * @param intervalS seconds between plain lines (&gt;= 1)
     * @param clock     monotonic time, ns (tests pass their own)
     */
    ProgressView(boolean terminal, PrintStream out, long intervalS, LongSupplier clock) {
        this.terminal = terminal;
        this.out = out;
        this.intervalS = Math.max(1, intervalS);
        this.clock = clock;
    }

    /** @return a view that draws a bar when {@code System.console()} is present, else prints every 5 s to stderr */
    public static ProgressView forConsole() {
        return new ProgressView(System.console() != null, System.err, 5);
    }

    /**
     * @param pending how many of the run's events still wait for Kafka (e.g. the sink's
     *                {@link io.capstream.loadgen.emit.EventSink#pending()}); read when a line is drawn
     * @return this
     */
    public ProgressView watchDelivery(LongSupplier pending) {
        this.pendingEvents = pending;
        return this;
    }

    /**
     * @param step what the embedded Kafka's start does now while the run's events wait for it rather than for
     *             Kafka's acknowledgement (e.g. "creating the topics", while the deferred sink is {@code opening()}),
     *             or null once it has started; read when a line is drawn
     * @return this
     */
    public ProgressView watchKafkaStart(Supplier<String> step) {
        this.kafkaStart = step;
        return this;
    }

    @Override
    public synchronized void onStarted(String runId, RunPlan plan) {
        startedNs = clock.getAsLong();
        planned = plan.requests();
        out.println("capstream: run " + runId + " started: " + plan.requests() + " requests");
        if (terminal) {
            bar = new ProgressBarBuilder().setTaskName("run").setInitialMax(plan.requests())
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).continuousUpdate()
                    .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                    .build();
        }
        printer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-progress");
            t.setDaemon(true);
            return t;
        });
        if (terminal) {
            // the bar redraws itself; only the message of the delivery wait changes without a request ending
            printer.scheduleAtFixedRate(this::updateBar, 1, 1, TimeUnit.SECONDS);
        } else {
            printer.scheduleAtFixedRate(this::printLine, intervalS, intervalS, TimeUnit.SECONDS);
        }
    }

    /** Prints a start-up step (warm-up) or end-of-run step as its own line. */
    @Override
    public void onNotice(String line) {
        out.println("capstream: " + line);
    }

    @Override
    public void onProgress(RunProgress p) {
        latest.accumulateAndGet(p, (a, b) -> a == null || b.done() >= a.done() ? b : a);
        ProgressBar b = bar;
        if (b != null) {
            b.stepTo(p.done());
            b.setExtraMessage(String.format(Locale.ROOT, "fail %d%s TTFT p50 %s", p.failed(),
                    p.cancelled() > 0 ? " cancel " + p.cancelled() : "",
                    p.ttftP50Ms() == null ? "-" : String.format(Locale.ROOT, "%.0f ms", p.ttftP50Ms())));
        }
    }

    /** From now on the line says what the run waits for instead of repeating the last request count. */
    @Override
    public void onAwaitingDelivery(int ended) {
        requestsEnded = ended;
        awaitingSinceNs = clock.getAsLong();
        updateBar();
    }

    private static String extra(RunProgress p) {
        return String.format(Locale.ROOT, "failed %d,%s in flight %d, TTFT p50 %s", p.failed(),
                p.cancelled() > 0 ? " cancelled " + p.cancelled() + "," : "", p.inFlight(),
                p.ttftP50Ms() == null ? "-" : String.format(Locale.ROOT, "%.1f ms", p.ttftP50Ms()));
    }

    /**
     * @return the current plain line without the {@code capstream: } prefix; before the first request ended
     *         {@code 0/300 done (42 s), no request has ended yet} (so that a run against an endpoint that has not
     *         answered yet still shows its clock), or null before the run started
     */
    String line() {
        long now = clock.getAsLong();
        if (awaitingSinceNs >= 0) {
            int total = planned;
            String done = requestsEnded >= total ? "all " + total + " requests done"
                    : requestsEnded + " of " + total + " requests done, no more will start";
            return done + "; " + waiting() + String.format(Locale.ROOT, " (%.0f s)", (now - awaitingSinceNs) / 1e9);
        }
        RunProgress p = latest.get();
        if (p == null) {
            return planned == 0 ? null : String.format(Locale.ROOT, "0/%d done (%.0f s), no request has ended yet",
                    planned, (now - startedNs) / 1e9);
        }
        return String.format(Locale.ROOT, "%d/%d done (%.0f s), %s", p.done(), p.total(), (now - startedNs) / 1e9,
                extra(p));
    }

    private String waiting() {
        LongSupplier pending = pendingEvents;
        if (pending == null) {
            return "waiting for the events to be delivered";
        }
        long n = pending.getAsLong();
        Supplier<String> starting = kafkaStart;
        String step = starting == null ? null : starting.get();
        if (step != null) {
            return step + ", " + n + (n == 1 ? " event" : " events") + " held";
        }
        return "waiting for Kafka to acknowledge " + n + (n == 1 ? " event" : " events");
    }

    private void printLine() {
        String line = line();
        if (line != null) {
            out.println("capstream: " + line);
        }
    }

    private void updateBar() {
        ProgressBar b = bar;
        if (b != null && awaitingSinceNs >= 0) {
            b.setExtraMessage(waiting());
        }
    }

    /** Stops drawing (final bar state, or a last line unless the run had reached its delivery wait). Idempotent. */
    @Override
    public synchronized void close() {
        if (printer != null) {
            printer.shutdownNow();
            printer = null;
            if (!terminal && awaitingSinceNs < 0) {
                printLine();
            }
        }
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}

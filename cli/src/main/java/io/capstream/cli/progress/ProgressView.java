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
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows a run's progress: a progress bar (done/total, failures, running TTFT p50) when stdout is a
 * terminal, plain lines every {@code intervalS} seconds otherwise. The listener callbacks only store
 * the latest snapshot (they run on event loops and must not block); drawing happens on the progress
 * bar's own thread or on a daemon printer thread. Close it when the run ends.
 */
public final class ProgressView implements RunListener, AutoCloseable {
    private final boolean terminal;
    private final PrintStream out;
    private final long intervalS;
    private final AtomicReference<RunProgress> latest = new AtomicReference<>();
    private volatile ProgressBar bar;
    private ScheduledExecutorService printer;

    /**
     * @param terminal  true to draw a progress bar (stdout is a terminal)
     * @param out       where plain lines go
     * @param intervalS seconds between plain lines (&gt;= 1)
     */
    public ProgressView(boolean terminal, PrintStream out, long intervalS) {
        this.terminal = terminal;
        this.out = out;
        this.intervalS = Math.max(1, intervalS);
    }

    /** @return a view that draws a bar when {@code System.console()} is present, else prints every 5 s to stderr */
    public static ProgressView forConsole() {
        return new ProgressView(System.console() != null, System.err, 5);
    }

    @Override
    public synchronized void onStarted(String runId, RunPlan plan) {
        out.println("capstream: run " + runId + " started: " + plan.requests() + " requests");
        if (terminal) {
            bar = new ProgressBarBuilder().setTaskName("run").setInitialMax(plan.requests())
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).continuousUpdate()
                    .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                    .build();
        } else {
            printer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "capstream-progress");
                t.setDaemon(true);
                return t;
            });
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
            b.setExtraMessage(String.format(Locale.ROOT, "fail %d TTFT p50 %s", p.failed(),
                    p.ttftP50Ms() == null ? "-" : String.format(Locale.ROOT, "%.0f ms", p.ttftP50Ms())));
        }
    }

    private static String extra(RunProgress p) {
        return String.format(Locale.ROOT, "failed %d, in flight %d, TTFT p50 %s", p.failed(), p.inFlight(),
                p.ttftP50Ms() == null ? "-" : String.format(Locale.ROOT, "%.1f ms", p.ttftP50Ms()));
    }

    private void printLine() {
        RunProgress p = latest.get();
        if (p != null) {
            out.printf(Locale.ROOT, "capstream: %d/%d done (%.0f s), %s%n", p.done(), p.total(), p.elapsedNs() / 1e9,
                    extra(p));
        }
    }

    /** Stops drawing (final bar state or a last line). Idempotent. */
    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
        if (printer != null) {
            printer.shutdownNow();
            printer = null;
            printLine();
        }
    }
}

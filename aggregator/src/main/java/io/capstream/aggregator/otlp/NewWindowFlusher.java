package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the totals soon after a window closed instead of at the next periodic export (up to
 * {@code OTEL_METRIC_EXPORT_INTERVAL}, 60 s by default, later): checks every {@code period} whether more windows have
 * been added than at the last flush and then flushes. A failed flush (endpoint down) is not repeated at every check:
 * the totals are cumulative, so the next window or the next periodic export carries them. One daemon thread;
 * {@link #close()} stops it.
 */
final class NewWindowFlusher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NewWindowFlusher.class);

    private final Supplier<? extends Collection<WindowTotals.Snapshot>> source;
    private final BooleanSupplier flush;
    private final ScheduledExecutorService timer;
    private long flushedWindows;

    /**
     * @param source the series
     * @param flush  exports now and says whether it succeeded (waits for it)
     * @param period how often to look
     */
    NewWindowFlusher(Supplier<? extends Collection<WindowTotals.Snapshot>> source, BooleanSupplier flush,
                     Duration period) {
        this.source = source;
        this.flush = flush;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-otlp-flush");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void check() {
        try {
            long windows = source.get().stream().mapToLong(WindowTotals.Snapshot::windows).sum();
            if (windows > flushedWindows) {
                flushedWindows = windows;
                flush.getAsBoolean();
            }
        } catch (RuntimeException e) {
            LOG.warn("OTLP export: flush after a new window failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

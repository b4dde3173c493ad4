package io.capstream.aggregator.api;

import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.schemas.avro.WindowHistogram;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cumulative totals of the windows this process closed, per target, model and context bucket (issue 31): for every
 * {@link LatencyMeasure}, the bucket counts, sum and count of {@code WindowSummary.histograms} added up; requests by
 * outcome (completed, failed by error type, cancelled); input and output tokens. The one accumulation that the
 * Prometheus histograms and counters and the OpenTelemetry export both read, so that they agree. Windows are added
 * once each (the first emission of a window, not its late updates). Thread-safe: summaries arrive on stream threads,
 * snapshots are taken on the HTTP and export threads.
 */
public final class WindowTotals {
    private final Map<SeriesKey, Series> series = new ConcurrentHashMap<>();
    private final Clock clock;

    /**
     * @param clock the clock that stamps when a series started (OpenTelemetry's start time); not null
     */
    public WindowTotals(Clock clock) {
        this.clock = clock;
    }

    /**
     * Adds a closed window.
     *
     * @param s the window's summary (its first emission); not null
     */
    public void add(WindowSummary s) {
        SeriesKey key = new SeriesKey(s.getTarget(), s.getModel(), s.getContextBucket());
        series.computeIfAbsent(key, k -> new Series(clock.millis())).add(s);
    }

    /** @return a consistent copy of every series, in no particular order */
    public List<Snapshot> snapshot() {
        List<Snapshot> out = new ArrayList<>();
        series.forEach((key, s) -> out.add(s.snapshot(key)));
        return out;
    }

    /**
     * The key of a series.
     *
     * @param target        target base URL (credentials already masked by the load generator)
     * @param model         model id
     * @param contextBucket context bucket label, e.g. le4096
     */
    public record SeriesKey(String target, String model, String contextBucket) {
    }

    /**
     * One bucket histogram added up over windows.
     *
     * @param boundsS upper bounds of the finite buckets, seconds ({@link LatencyMeasure#BOUNDS_S})
     * @param counts  values per bucket, not cumulative, {@code boundsS.size() + 1} elements
     * @param sumS    sum of the values, seconds
     * @param count   number of values
     */
    public record Histogram(List<Double> boundsS, long[] counts, double sumS, long count) {
    }

    /**
     * A copy of one series.
     *
     * @param key            its key
     * @param startEpochMs   when this process first added a window of it, epoch ms
     * @param windows        windows added
     * @param histograms     per measure that had values; measures without any are absent
     * @param completed      completed requests
     * @param failuresByType failed requests per error type, sorted by type
     * @param cancelled      requests cancelled on purpose by the client
     * @param inputTokens    prompt tokens of completed requests
     * @param outputTokens   output tokens of completed requests
     * @param lastWindowEndMs end of the latest window added, epoch ms
     */
    public record Snapshot(SeriesKey key, long startEpochMs, long windows, Map<LatencyMeasure, Histogram> histograms,
                           long completed, Map<String, Long> failuresByType, long cancelled, long inputTokens,
                           long outputTokens, long lastWindowEndMs) {
        /** @return failed requests (every error type) */
        public long failed() {
            return failuresByType.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Mutable totals of one series, guarded by its own monitor. */
    private static final class Series {
        private final long startEpochMs;
        private final EnumMap<LatencyMeasure, long[]> counts = new EnumMap<>(LatencyMeasure.class);
        private final EnumMap<LatencyMeasure, double[]> sums = new EnumMap<>(LatencyMeasure.class);
        private final TreeMap<String, Long> failures = new TreeMap<>();
        private long windows;
        private long completed;
        private long cancelled;
        private long inputTokens;
        private long outputTokens;
        private long lastWindowEndMs;

        Series(long startEpochMs) {
            this.startEpochMs = startEpochMs;
        }

        synchronized void add(WindowSummary s) {
            windows++;
            completed += s.getCompleted();
            cancelled += s.getCancelled() == null ? 0 : s.getCancelled();
            inputTokens += s.getPromptTokens();
            outputTokens += s.getOutputTokens();
            s.getFailuresByType().forEach((type, n) -> failures.merge(type, n, Long::sum));
            lastWindowEndMs = Math.max(lastWindowEndMs, s.getWindowEndMs());
            if (s.getHistograms() == null) {
                return;
            }
            s.getHistograms().forEach((id, h) -> {
                LatencyMeasure m = LatencyMeasure.byId(id);
                if (m != null && h.getCounts().size() == LatencyMeasure.BOUNDS_S.size() + 1
                        && h.getBoundsS().equals(LatencyMeasure.BOUNDS_S)) {
                    add(m, h);
                }
            });
        }

        private void add(LatencyMeasure m, WindowHistogram h) {
            long[] c = counts.computeIfAbsent(m, k -> new long[LatencyMeasure.BOUNDS_S.size() + 2]);
            for (int i = 0; i < h.getCounts().size(); i++) {
                c[i] += h.getCounts().get(i);
            }
            c[c.length - 1] += h.getCount();
            sums.computeIfAbsent(m, k -> new double[1])[0] += h.getSumS();
        }

        synchronized Snapshot snapshot(SeriesKey key) {
            Map<LatencyMeasure, Histogram> hs = new EnumMap<>(LatencyMeasure.class);
            counts.forEach((m, c) -> hs.put(m, new Histogram(LatencyMeasure.BOUNDS_S,
                    java.util.Arrays.copyOf(c, c.length - 1), sums.get(m)[0], c[c.length - 1])));
            return new Snapshot(key, startEpochMs, windows, Collections.unmodifiableMap(hs), completed,
                    Collections.unmodifiableMap(new TreeMap<>(failures)), cancelled, inputTokens, outputTokens,
                    lastWindowEndMs);
        }
    }
}

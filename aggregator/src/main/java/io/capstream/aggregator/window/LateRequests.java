package io.capstream.aggregator.window;

import io.capstream.schemas.avro.WindowSummary;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits again the windows that took late requests ({@link #merged}: the summary rebuilt from the closed window's
 * aggregate), and counts the requests too late even for that ({@link #drop}) where a user sees them: the
 * window's summary emitted again with {@code late_dropped} raised, the {@link LateRequestListener} (Prometheus
 * counter), Kafka Streams' own task-level {@code dropped-records} sensor, and a WARN line (at most one per
 * {@value #WARN_EVERY_MS} ms in the process, with the count since the previous one). Updates are emitted at most
 * once a second per window ({@link #flush}), with the header {@value #UPDATE_HEADER}.
 *
 * <p>Counts not yet emitted wait in the window step's store under {@value #PREFIX}{@code <window start>|<key>}.
 * When the window's summary is no longer in the summaries store (older than its retention), no update is
 * emitted: an update with zero requests would replace the full summary for consumers that keep the latest
 * record; the request is then counted by the metrics and the log only.
 */
final class LateRequests {
    /** Store key prefix of the counts waiting to be emitted (sorts after every window key). */
    static final String PREFIX = "~late|";
    /** Header of the summaries emitted again (value "1"): SLO alerts and the window gauges skip them. */
    public static final String UPDATE_HEADER = "capstream.window.update";
    /** Least wall-clock time between two WARN lines, ms. */
    static final long WARN_EVERY_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(LateRequests.class);

    private final ProcessorContext<String, WindowSummary> context;
    private final WindowAggregateStore aggregates;
    private final KeyValueStore<String, byte[]> store;
    private final WindowStore<String, WindowSummary> summaries;
    private final LateRequestListener listener;
    private final Sensor droppedRecords;
    private final long sizeMs;
    private final long retentionMs;
    private final double relativeAccuracy;
    private final boolean withGoodput;
    /** Shared by the window tasks of the process: at most one WARN line per {@value #WARN_EVERY_MS} ms in all. */
    private static final WarnLimiter WARN = new WarnLimiter();
    /**
     * Store keys of the windows known to have an entry under {@link #PREFIX} since the last {@link #flush} (most
     * requests of a backlog written run after run are late: one store read per window instead of per request).
     */
    private final java.util.Set<String> noted = new java.util.HashSet<>();
    /**
     * Whether the store may hold counts under {@link #PREFIX} not yet emitted: true at first (a restored store may
     * hold some), then only after {@link #merged} or {@link #drop} (the only writers of such entries, and only
     * through this object): the once-a-second {@link #flush} skips its prefix scan of the store when nothing was
     * noted since the last one.
     */
    private boolean pending = true;

    LateRequests(ProcessorContext<String, WindowSummary> context, WindowAggregateStore aggregates,
                 WindowStore<String, WindowSummary> summaries, LateRequestListener listener,
                 WindowTopologyConfig config, boolean withGoodput) {
        this.context = context;
        this.aggregates = aggregates;
        this.store = aggregates.bytes();
        this.summaries = summaries;
        this.listener = listener;
        this.sizeMs = config.windowSize().toMillis();
        this.retentionMs = config.retention().toMillis();
        this.relativeAccuracy = config.relativeAccuracy();
        this.withGoodput = withGoodput;
        this.droppedRecords = droppedRecordsSensor(context);
    }

    /** Kafka Streams' task-level dropped-records sensor (what its own windowed aggregations record late records in). */
    private static Sensor droppedRecordsSensor(ProcessorContext<?, ?> context) {
        if (context.metrics() instanceof StreamsMetricsImpl impl) {
            return TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(), impl);
        }
        return null;
    }

    /**
     * Notes that a closed window took a late request (its summary is emitted again at the next flush).
     *
     * @param key         the window key, encoded ({@link WindowKey#encode}); not null
     * @param windowStart the window's start, epoch ms
     */
    void merged(String key, long windowStart) {
        String storeKey = PREFIX + TumblingWindowProcessor.storeKey(windowStart, key);
        pending = true;
        if (noted.add(storeKey) && store.get(storeKey) == null) {
            store.put(storeKey, "0".getBytes(StandardCharsets.US_ASCII));
        }
    }

    /**
     * Counts requests of one window too late to be merged (one request, or a partial aggregate's).
     *
     * @param key         their window key; not null
     * @param windowStart their window's start, epoch ms
     * @param eventTime   their (largest) event time, epoch ms
     * @param closeTime   the time up to which windows were closed, epoch ms
     * @param progress    the input partitions' progress (for the log); not null
     * @param count       how many requests, &ge; 1
     */
    void drop(WindowKey key, long windowStart, long eventTime, long closeTime, InputProgress progress, long count) {
        String storeKey = PREFIX + TumblingWindowProcessor.storeKey(windowStart, key.encode());
        pending = true;
        byte[] old = store.get(storeKey);
        long n = (old == null ? 0 : Long.parseLong(new String(old, StandardCharsets.US_ASCII))) + count;
        store.put(storeKey, Long.toString(n).getBytes(StandardCharsets.US_ASCII));
        for (long i = 0; i < count; i++) {
            listener.lateDropped(key.target(), key.model(), key.bucket());
        }
        if (droppedRecords != null) {
            droppedRecords.record(count);
        }
        WARN.count(count, String.format("%s window %s, event time %s, %d ms behind the close time %s (input partitions: %s)",
                key.encode(), Instant.ofEpochMilli(windowStart), Instant.ofEpochMilli(eventTime), closeTime - eventTime,
                Instant.ofEpochMilli(closeTime), progress));
        WARN.warnIfDue(context.currentSystemTimeMs());
    }

    /**
     * Emits the windows whose late counts rose since the last call, each once, with {@code late_dropped} raised;
     * writes the WARN line when one is due.
     *
     * @param closeTime the time up to which windows were closed, epoch ms (decides which windows are past the
     *                  summaries' retention)
     */
    void flush(long closeTime) {
        noted.clear();
        if (!pending) {
            WARN.warnIfDue(context.currentSystemTimeMs());
            return;
        }
        List<KeyValue<String, byte[]>> due = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(PREFIX, new StringSerializer())) {
            while (it.hasNext()) {
                due.add(it.next());
            }
        }
        for (KeyValue<String, byte[]> kv : due) {
            store.delete(kv.key);
            String rest = kv.key.substring(PREFIX.length());
            int sep = rest.indexOf(WindowKey.SEP);
            long start = Long.parseLong(rest.substring(0, sep));
            WindowKey key = WindowKey.decode(rest.substring(sep + 1));
            long n = Long.parseLong(new String(kv.value, StandardCharsets.US_ASCII));
            WindowSummary before = summaries.fetch(key.encode(), start);
            WindowAggregate closed = aggregates.get(TumblingWindowProcessor.CLOSED_PREFIX + rest);
            WindowSummary after;
            if (closed != null) {
                after = SummaryBuilder.build(key, start, start + sizeMs, closed, withGoodput);
                after.setServerMetrics(before == null ? null : before.getServerMetrics());
                after.setLateDropped((before == null ? 0 : before.getLateDropped()) + n);
            } else if (before != null) {
                after = WindowSummary.newBuilder(before).setLateDropped(before.getLateDropped() + n).build();
            } else if (start + sizeMs + retentionMs > closeTime) {
                // the key had no request in that window: an empty summary that says what was dropped
                after = SummaryBuilder.build(key, start, start + sizeMs, new WindowAggregate(relativeAccuracy),
                        withGoodput);
                after.setLateDropped(n);
            } else {
                continue; // past the summaries' retention: counted in the metrics and the log only
            }
            context.forward(new Record<>(key.summaryKey(start), after, start + sizeMs,
                    new org.apache.kafka.common.header.internals.RecordHeaders().add(UPDATE_HEADER,
                            "1".getBytes(StandardCharsets.US_ASCII))));
        }
        pending = false; // every count is emitted (a failure above leaves it true: the next flush scans again)
        WARN.warnIfDue(context.currentSystemTimeMs());
    }

    /** The count of late requests since the last WARN line, and when that was; thread-safe. */
    private static final class WarnLimiter {
        private long lastWarnMs = Long.MIN_VALUE;
        private long unwarned;
        private String latest;

        synchronized void count(long n, String what) {
            unwarned += n;
            latest = what;
        }

        synchronized void warnIfDue(long now) {
            if (unwarned == 0 || (lastWarnMs != Long.MIN_VALUE && now - lastWarnMs < WARN_EVERY_MS)) {
                return;
            }
            LOG.warn("dropped {} late request(s){}: their window had closed (event time more than the grace behind "
                            + "every input partition); counted in the window summary's late_dropped and in "
                            + "capstream_window_late_dropped_total; latest: {}", unwarned,
                    lastWarnMs == Long.MIN_VALUE ? "" : " in the last " + (now - lastWarnMs) / 1000 + " s", latest);
            lastWarnMs = now;
            unwarned = 0;
        }
    }
}

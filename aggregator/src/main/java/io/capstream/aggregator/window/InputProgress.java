package io.capstream.aggregator.window;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A window task's view of how far every input partition of {@code capstream.events} has been read, and from it
 * the time up to which windows may close ({@link #closeTime()}).
 *
 * <p>Why: the window task reads one partition of the repartition topic, into which the re-keying tasks of all
 * input partitions write. On a live feed they all run at the speed of the events; on a backlog (a restart, a
 * replay, an outage that held events back) each input partition is read at its own speed, and their event
 * times are minutes apart in the repartition topic. Closing at the largest event time seen (the stream time of
 * the task) closed windows before the slower partitions' events arrived, and those were lost. Here a window
 * closes only when every input partition that is not idle has passed it: the smallest of their largest event
 * times. Each input partition's records arrive in the order it was read, the same as on a live feed, so a
 * backlog loses no more than the live feed would (only events more than the grace out of order within their
 * own partition). An idle partition (nothing to read for a while: caught up or empty) does not hold windows;
 * when every partition is idle the close time is the largest event time seen, as on a live feed whose traffic
 * stopped.
 *
 * <p>Kafka Streams' {@code max.task.idle.ms} does not help here: it orders a task's several input partitions,
 * but a window task has one input partition (of the repartition topic) that already mixes all input partitions.
 *
 * <p>State (in the window step's key-value store, so it survives restarts and moves with the task): one entry
 * per input partition under {@value #PREFIX}{@code <partition>}, written once per commit ({@link #write()}).
 */
final class InputProgress {
    /** Store key prefix of the per-partition entries (sorts after every window key). */
    static final String PREFIX = "~source|";

    private final KeyValueStore<String, byte[]> store;
    private final int expected;
    private final Map<Integer, SourceProgress> sources = new HashMap<>();
    /** Partitions whose progress changed since the last {@link #write()}. */
    private final java.util.Set<Integer> changed = new java.util.HashSet<>();
    private long maxSeen = Long.MIN_VALUE;

    /**
     * Loads the saved progress.
     *
     * @param store    the window step's store; not null
     * @param expected number of input partitions (each must have reported before anything closes); 0 = unknown
     *                 (only partitions that reported count)
     */
    InputProgress(KeyValueStore<String, byte[]> store, int expected) {
        this.store = store;
        this.expected = expected;
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(PREFIX,
                new org.apache.kafka.common.serialization.StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                SourceProgress p = decode(Integer.parseInt(kv.key.substring(PREFIX.length())), kv.value);
                sources.put(p.source(), p);
            }
        }
    }

    /**
     * Takes in one record of the repartition topic; the store is written by {@link #write()}.
     *
     * @param timestamp its timestamp (event time), epoch ms
     * @param progress  the progress it carries; null for records without (older versions): then only the largest
     *                  event time seen advances
     */
    void update(long timestamp, SourceProgress progress) {
        if (progress == null) {
            maxSeen = Math.max(maxSeen, timestamp);
            return;
        }
        SourceProgress old = sources.get(progress.source());
        long time = old == null ? progress.eventTime() : Math.max(old.eventTime(), progress.eventTime());
        SourceProgress now = new SourceProgress(progress.source(), time, progress.idle());
        if (!now.equals(old)) {
            sources.put(now.source(), now);
            changed.add(now.source());
        }
    }

    /**
     * Writes the progress that changed since the last call to the store. Called before every commit (progress
     * changes with nearly every record, and writing it each time was a tenth of the window step): what is committed
     * is the progress of the input consumed so far.
     */
    void write() {
        for (Integer source : changed) {
            store.put(PREFIX + source, encode(sources.get(source)));
        }
        changed.clear();
    }

    /**
     * @return the event time (epoch ms) every input partition that is not idle has reached: the smallest of
     *         their largest event times; {@link Long#MIN_VALUE} while an expected partition has not reported yet;
     *         the largest event time seen when all are idle or none reports progress
     */
    long closeTime() {
        for (int p = 0; p < expected; p++) {
            if (!sources.containsKey(p)) {
                return Long.MIN_VALUE;
            }
        }
        long min = Long.MAX_VALUE;
        long max = maxSeen;
        boolean active = false;
        for (SourceProgress s : sources.values()) {
            max = Math.max(max, s.eventTime());
            if (!s.idle()) {
                active = true;
                min = Math.min(min, s.eventTime());
            }
        }
        return active ? min : max;
    }

    private static byte[] encode(SourceProgress p) {
        return ByteBuffer.allocate(9).putLong(p.eventTime()).put((byte) (p.idle() ? 1 : 0)).array();
    }

    private static SourceProgress decode(int source, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new SourceProgress(source, b.getLong(), b.get() == 1);
    }

    /** @return each input partition's progress, e.g. {@code 0 at 2026-01-01T10:00:00Z, 1 idle at ...} */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        new java.util.TreeMap<>(sources).values().forEach(s -> b.append(b.isEmpty() ? "" : ", ").append(s.source())
                .append(s.idle() ? " idle at " : " at ")
                .append(s.eventTime() == Long.MIN_VALUE ? "-" : java.time.Instant.ofEpochMilli(s.eventTime())));
        return b.toString();
    }
}

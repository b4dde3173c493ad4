package io.capstream.aggregator.report;

import io.capstream.aggregator.runtime.WrappingStoreBuilder;
import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.aggregator.report.state.RunProgressSerde;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * The report topology's progress store ({@value ReportTopology#PROGRESS_STORE}: one {@link RunProgress} per run,
 * persistent, logged) with a write-behind map in front of it (issue 31): {@link #put} keeps the run's progress
 * object, and each changed progress is encoded ({@link RunProgressSerde}, a few hundred bytes to a few KB: the bit
 * set of received request indices grows with the run) and written to the store below, so to its changelog, once
 * per commit instead of once per event.
 *
 * <p>Safe under exactly-once for the same reason as the window step's store: before every commit of the task (the
 * interval's, and the one before the task is suspended, closed or moves on a rebalance) Kafka Streams calls
 * {@link #flushCache()} of each of its stores, and only then flushes the producer and commits the transaction with
 * the input offsets. This store is the root of its layers, so that call first writes every progress changed since
 * the last commit into the store below. When a transaction is not committed the task's stores are closed
 * ({@link #close()} drops the unwritten changes) and restored from the changelog. Reads ({@link #get}, {@link #all})
 * see the unwritten changes. Uses Kafka Streams' internal {@link WrappedStateStore}; {@code ProgressStoreTest} fails
 * if a Kafka Streams version stops calling {@code flushCache} before a commit. Not thread-safe: one stream task uses it.
 */
final class ProgressStore extends WrappedStateStore<KeyValueStore<String, RunProgress>, String, RunProgress> {
    private final Map<String, RunProgress> dirty = new HashMap<>();

    private ProgressStore(KeyValueStore<String, RunProgress> inner) {
        super(inner);
    }

    /**
     * @param name the store's name (and its changelog's, {@code <app>-<name>-changelog})
     * @return a builder of a persistent, logged store with the write-behind map in front
     */
    static StoreBuilder<ProgressStore> builder(String name) {
        return over(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(),
                new RunProgressSerde()));
    }

    /**
     * @param inner builder of the store below (e.g. an in-memory one in tests); not null
     * @return a builder of that store with the write-behind map in front
     */
    static StoreBuilder<ProgressStore> over(StoreBuilder<KeyValueStore<String, RunProgress>> inner) {
        return new WrappingStoreBuilder<>(inner, ProgressStore::new);
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        dirty.clear();
        super.init(context, root);
    }

    /**
     * @param runId run id; not null
     * @return the run's progress (the object kept since the last {@link #put}, or decoded from the store); null when
     *     there is none
     */
    public RunProgress get(String runId) {
        RunProgress p = dirty.get(runId);
        return p != null ? p : wrapped().get(runId);
    }

    /**
     * Keeps the progress object (not copied): it is encoded and written at the next commit.
     *
     * @param runId    run id; not null
     * @param progress the run's progress; not null
     */
    public void put(String runId, RunProgress progress) {
        dirty.put(runId, java.util.Objects.requireNonNull(progress, "progress"));
    }

    /** @param runId run id whose progress is deleted now; not null */
    public void delete(String runId) {
        dirty.remove(runId);
        wrapped().delete(runId);
    }

    /** @return a snapshot of every run's progress, the changes since the last commit included */
    public List<Map.Entry<String, RunProgress>> all() {
        writeDirty(); // the scan sees the changes since the last commit
        List<Map.Entry<String, RunProgress>> out = new java.util.ArrayList<>();
        try (KeyValueIterator<String, RunProgress> it = wrapped().all()) {
            while (it.hasNext()) {
                KeyValue<String, RunProgress> kv = it.next();
                out.add(Map.entry(kv.key, kv.value));
            }
        }
        return out;
    }

    /** Before every commit: writes the progress changed since the last one, then flushes the store below. */
    @Override
    public void flushCache() {
        writeDirty();
        super.flushCache();
    }

    @Override
    public void clearCache() {
        dirty.clear();
        super.clearCache();
    }

    @Override
    public void close() {
        dirty.clear(); // changes not flushed belong to a transaction that is not committed
        super.close();
    }

    /** @return progress values changed since the last flush (for tests) */
    int unwritten() {
        return dirty.size();
    }

    private void writeDirty() {
        dirty.forEach((runId, p) -> wrapped().put(runId, p));
        dirty.clear();
    }

}

package io.capstream.aggregator.window;

import io.capstream.aggregator.runtime.WrappingStoreBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * The window step's key-value store ({@link WindowTopology#AGGREGATES_STORE}, logged, String keys, byte values)
 * with a write-behind cache of <em>decoded</em> window aggregates in front of it: a request updates the
 * {@link WindowAggregate} object in memory, and each changed aggregate is encoded ({@link WindowAggregate#toBytes})
 * and written to the store, and so to its changelog, once per commit instead of being decoded and encoded again
 * for every request (that was most of the window step's CPU: the aggregate and its six DDSketches, a few KB).
 *
 * <p><b>Why this is safe under exactly-once.</b> A processor has no commit hook in Kafka Streams' public API, but
 * a state store does: before every commit (the interval's, and the one before a task is suspended, closed or moves
 * on a rebalance) Kafka Streams flushes the caches of the task's stores ({@code CachedStateStore#flushCache},
 * which its own record cache implements), and only then flushes the producer and commits the transaction that
 * carries the input offsets. This store is registered as the root of its layers, so that flush reaches
 * {@link #flushCache()} first, which writes every aggregate changed since the last flush into the store below
 * (a cached, logged RocksDB store) and then flushes that. So every commit is preceded by the write of everything
 * the committed input changed: the changelog, within the same transaction as the input offsets, holds exactly
 * the aggregates of the input consumed so far, and a restore from it (after kill -9, or on another instance)
 * gives the same summaries. When a transaction is not committed (a crash, or Kafka Streams closing the task
 * dirty), the task's stores are closed ({@link #close()} drops the cache with the uncommitted changes) and
 * restored from the changelog, as for the record cache. Aggregates that were not changed stay in the cache as a
 * read cache of what is in the store; the cache is cleared of them when it grows past {@value #MAX_CACHED}
 * entries.
 *
 * <p>Uses Kafka Streams' internal {@link WrappedStateStore} (the same base as its record cache); the restore test
 * ({@code WindowAggregateStoreTest}) fails if a Kafka Streams version stops calling {@code flushCache} before a
 * commit.
 *
 * <p>Other entries of the store (the close time reached, the input partitions' progress, late counts) are plain
 * bytes, read and written through {@link #bytes()}; aggregate entries only through {@link #get}, {@link #put},
 * {@link #delete} and {@link #keys}. Not thread-safe: one stream thread's task uses it.
 */
final class WindowAggregateStore extends WrappedStateStore<KeyValueStore<String, byte[]>, String, byte[]> {
    /** Most aggregates kept decoded between commits before unchanged ones are dropped from memory. */
    static final int MAX_CACHED = 4096;

    private final Map<String, WindowAggregate> cached = new HashMap<>();
    private final Set<String> dirty = new HashSet<>();
    private Runnable beforeFlush = () -> { };

    private WindowAggregateStore(KeyValueStore<String, byte[]> inner) {
        super(inner);
    }

    /**
     * @param name the store's name (and its changelog's, {@code <app>-<name>-changelog})
     * @return a builder of a persistent, logged, record-cached store with this cache in front
     */
    static StoreBuilder<WindowAggregateStore> builder(String name) {
        return new WrappingStoreBuilder<>(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name),
                Serdes.String(), Serdes.ByteArray()).withCachingEnabled(), WindowAggregateStore::new);
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        clearMemory();
        super.init(context, root);
    }

    /**
     * Sets what writes the task's other in-memory state (entries of {@link #bytes()}) before every commit, with the
     * aggregates: it runs first in {@link #flushCache()}. The window processor sets it when it is initialised (after
     * this store, and again when it is initialised again); it replaces the one set before.
     *
     * @param writer writes to {@link #bytes()}; not null
     */
    public void beforeFlush(Runnable writer) {
        this.beforeFlush = java.util.Objects.requireNonNull(writer, "writer");
    }

    /** @return the store below, for entries that are not window aggregates; not null */
    public KeyValueStore<String, byte[]> bytes() {
        return wrapped();
    }

    /**
     * @param key an aggregate's store key; not null
     * @return its aggregate (the cached object: after changing it, call {@link #put}); null when there is none
     * @throws org.apache.kafka.common.errors.SerializationException when the stored bytes are not an aggregate
     */
    public WindowAggregate get(String key) {
        WindowAggregate agg = cached.get(key);
        if (agg == null) {
            byte[] stored = wrapped().get(key);
            if (stored == null) {
                return null;
            }
            agg = WindowAggregate.fromBytes(stored);
            cached.put(key, agg);
        }
        return agg;
    }

    /**
     * Stores an aggregate: it is written to the store below at the next commit ({@link #flushCache()}).
     *
     * @param key       its store key; not null
     * @param aggregate the aggregate, kept (not copied): not changed afterwards except through {@link #get}; not null
     */
    public void put(String key, WindowAggregate aggregate) {
        cached.put(key, aggregate);
        dirty.add(key);
    }

    /** @param key an entry's key (aggregate or not) to delete now; not null */
    public void delete(String key) {
        cached.remove(key);
        dirty.remove(key);
        wrapped().delete(key);
    }

    /**
     * @param from first key (inclusive); not null
     * @param to   last key (inclusive, as {@link KeyValueStore#range}); not null
     * @return the keys in that range, in order, aggregates not yet written included
     */
    public List<String> keys(String from, String to) {
        writeDirty(); // a range scan sees the aggregates changed since the last commit too
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = wrapped().range(from, to)) {
            while (it.hasNext()) {
                keys.add(it.next().key);
            }
        }
        return keys;
    }

    /**
     * Before every commit: runs the {@link #beforeFlush} writer, writes the aggregates changed since the last one to the store below, then flushes it
     * (its record cache, to RocksDB and the changelog).
     */
    @Override
    public void flushCache() {
        beforeFlush.run();
        writeDirty();
        if (cached.size() > MAX_CACHED) {
            cached.clear(); // all written: nothing is lost
        }
        super.flushCache();
    }

    @Override
    public void clearCache() {
        clearMemory();
        super.clearCache();
    }

    @Override
    public void close() {
        clearMemory(); // changes not flushed belong to a transaction that is not committed
        super.close();
    }

    /** @return aggregates changed since the last flush (for tests) */
    int unwritten() {
        return dirty.size();
    }

    private void writeDirty() {
        for (String key : dirty) {
            wrapped().put(key, cached.get(key).toBytes());
        }
        dirty.clear();
    }

    private void clearMemory() {
        cached.clear();
        dirty.clear();
    }

}

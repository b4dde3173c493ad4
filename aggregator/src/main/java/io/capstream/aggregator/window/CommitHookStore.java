package io.capstream.aggregator.window;

import io.capstream.aggregator.runtime.WrappingStoreBuilder;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * Issue 31: a state store that holds nothing and exists for its commit hook: it runs {@link #beforeCommit}'s action
 * when Kafka Streams flushes the caches of its task's stores, which it does before every commit of the task (the
 * interval's, and the one before a task is suspended, closed or moves on a rebalance:
 * {@code StreamTask.prepareCommit} calls {@code flushCache} of every store, then flushes the producer, then commits
 * the transaction with the input offsets). The re-keying step ({@link RekeyProcessor}) forwards its buffered partial
 * aggregates from there, so that they are in the same transaction as the offsets of the requests in them.
 *
 * <p>An in-memory, unlogged key-value store underneath (never written): no changelog, nothing to restore. Uses
 * Kafka Streams' internal {@link WrappedStateStore}, as {@link WindowAggregateStore} does; the tests of the
 * re-keying step fail if a Kafka Streams version stops calling {@code flushCache} before a commit. Not
 * thread-safe: one stream thread's task uses it.
 */
final class CommitHookStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]> {
    private Runnable beforeCommit = () -> { };

    private CommitHookStore(KeyValueStore<Bytes, byte[]> inner) {
        super(inner);
    }

    /**
     * @param name the store's name, unique in the topology
     * @return a builder of an in-memory, unlogged, uncached store with this hook
     */
    static StoreBuilder<CommitHookStore> builder(String name) {
        StoreBuilder<KeyValueStore<Bytes, byte[]>> inner = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled().withCachingDisabled();
        return new WrappingStoreBuilder<>(inner, CommitHookStore::new);
    }

    /**
     * Sets what runs before every commit of the task; replaces the one set before (a processor initialised again
     * sets its own).
     *
     * @param action runs on the task's stream thread, may forward records; not null
     */
    void beforeCommit(Runnable action) {
        this.beforeCommit = Objects.requireNonNull(action, "action");
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        beforeCommit = () -> { };
        super.init(context, root);
    }

    /** Before every commit: runs the action, then the store below's flush. */
    @Override
    public void flushCache() {
        beforeCommit.run();
        super.flushCache();
    }

    @Override
    public void close() {
        beforeCommit = () -> { };
        super.close();
    }

}

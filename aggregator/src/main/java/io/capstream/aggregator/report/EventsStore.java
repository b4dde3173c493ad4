package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunEventBatchSerde;
import io.capstream.aggregator.report.state.RunEventBinarySerde;
import io.capstream.aggregator.report.state.StateKeys;
import io.capstream.aggregator.runtime.WrappingStoreBuilder;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * The report topology's events store ({@value ReportTopology#EVENTS_STORE}: the events of every open run, in
 * memory, logged) with a write-behind buffer in front of it (issue 31): {@link #add} keeps the event object, and
 * before each commit the events each run got since the last one are encoded and written as one record (key
 * {@link StateKeys#batch}, value {@link RunEventBatchSerde}: a batch past {@link #MAX_BATCH_BYTES} is split), so the
 * changelog gets one record per run and commit instead of one per event, and a run published before the commit
 * writes nothing: {@link #deleteRun} drops its buffered events and tombstones only the records written before (one
 * per batch). The batch sequence of a run goes on after the highest one in the store.
 *
 * <p>Safe under exactly-once for the reason {@link ProgressStore} is: Kafka Streams calls {@link #flushCache()} of
 * each store of the task before it flushes the producer and commits the transaction with the input offsets (the
 * interval's commit, and the one before a task is suspended, closed or moves on a rebalance); the buffer belongs to
 * the store, not to the processor, so it is written even when the processor is closed before that commit. When a
 * transaction is not committed the store is closed ({@link #close()} drops the buffer) and restored from the
 * changelog. {@link #events} sees the buffer.
 *
 * <p>A run's events as {@link #events} returns them: the per-event records of earlier versions first (what a
 * changelog written before this version restores: RunStarted, requests by index, RunFinished by finisher, scrapes
 * in arrival order), then the batches in sequence order, then the buffer. As a {@link KeyValueStore} it is the store
 * below (key, the raw record bytes: what the changelog holds), for tests and tools. Not thread-safe: one stream task
 * uses it.
 */
final class EventsStore extends WrappedStateStore<KeyValueStore<String, byte[]>, String, byte[]>
        implements KeyValueStore<String, byte[]> {
    /**
     * Largest batch record written, bytes of its value: 512 KiB, half the producer's default
     * {@code max.request.size} (1 MiB), so a changelog record is never refused for its size (a run that got more
     * events in one commit interval, e.g. while catching up a backlog, writes several batches).
     */
    static final int MAX_BATCH_BYTES = 512 * 1024;

    private static final StringSerializer KEYS = new StringSerializer();

    private final RunEventBatchSerde batches = new RunEventBatchSerde();
    private final RunEventBinarySerde single = new RunEventBinarySerde();
    /** Events stored since the last commit, per run, in arrival order. */
    private final Map<String, List<RunEvent>> buffered = new LinkedHashMap<>();
    /** Next batch sequence per run, known after a run's first write or read; found in the store when absent. */
    private final Map<String, Integer> nextSequence = new HashMap<>();

    private EventsStore(KeyValueStore<String, byte[]> inner) {
        super(inner);
    }

    /**
     * @param name the store's name (and its changelog's, {@code <app>-<name>-changelog})
     * @return a builder of an in-memory, logged store with the write-behind buffer in front
     */
    static StoreBuilder<EventsStore> builder(String name) {
        return over(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(),
                Serdes.ByteArray()));
    }

    /**
     * @param inner builder of the store below (e.g. one with logging disabled in tests); not null
     * @return a builder of that store with the write-behind buffer in front
     */
    static StoreBuilder<EventsStore> over(StoreBuilder<KeyValueStore<String, byte[]>> inner) {
        return new WrappingStoreBuilder<>(inner, EventsStore::new);
    }

    /**
     * @param store the store a processor got by name ({@code ProcessorContext#getStateStore}): Kafka Streams hands a
     *     processor a {@link KeyValueStore} inside a decorator that refuses {@code init} and {@code close}
     * @return the events store itself
     * @throws IllegalArgumentException when the store is no events store, nor wraps one
     */
    static EventsStore of(StateStore store) {
        StateStore s = store;
        while (!(s instanceof EventsStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        if (s instanceof EventsStore e) {
            return e;
        }
        throw new IllegalArgumentException("not an events store: " + (store == null ? null : store.getClass()));
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        forget();
        super.init(context, root);
    }

    /**
     * Keeps an event of an open run (not copied): it is written with the run's other new events at the next commit.
     *
     * @param runId run id; not null
     * @param event the event (the caller has checked that it is new); not null
     */
    void add(String runId, RunEvent event) {
        buffered.computeIfAbsent(runId, k -> new ArrayList<>()).add(Objects.requireNonNull(event, "event"));
    }

    /**
     * @param runId run id; not null
     * @return every event stored for the run: earlier versions' per-event records, the batches, then the events
     *     buffered since the last commit (the class comment gives the order)
     */
    List<RunEvent> events(String runId) {
        List<RunEvent> started = new ArrayList<>(1);
        List<RunEvent> requests = new ArrayList<>();
        List<RunEvent> finished = new ArrayList<>();
        List<RunEvent> scrapes = new ArrayList<>();
        List<RunEvent> batched = new ArrayList<>();
        int highest = -1;
        for (KeyValue<String, byte[]> kv : scan(StateKeys.runPrefix(runId))) {
            String key = kv.key;
            if (key.startsWith(StateKeys.batchPrefix(runId))) {
                batched.addAll(batches.deserializer().deserialize(null, kv.value));
                highest = Math.max(highest, StateKeys.batchSequence(runId, key));
            } else if (key.equals(StateKeys.started(runId))) {
                started.add(decode(kv.value));
            } else if (key.startsWith(StateKeys.requestPrefix(runId))) {
                requests.add(decode(kv.value));
            } else if (key.startsWith(StateKeys.finishedPrefix(runId))) {
                finished.add(decode(kv.value));
            } else if (key.startsWith(StateKeys.scrapePrefix(runId))) {
                scrapes.add(decode(kv.value));
            }
        }
        nextSequence.put(runId, highest + 1);
        List<RunEvent> out = new ArrayList<>(started);
        out.addAll(requests);
        out.addAll(finished);
        out.addAll(scrapes);
        out.addAll(batched);
        out.addAll(buffered.getOrDefault(runId, List.of()));
        return out;
    }

    /**
     * Deletes every event of the run: drops the buffered ones (never written) and tombstones each record of the run
     * in the store (its batches, and earlier versions' per-event records).
     *
     * @param runId run id; not null
     */
    void deleteRun(String runId) {
        buffered.remove(runId);
        nextSequence.remove(runId);
        for (KeyValue<String, byte[]> kv : scan(StateKeys.runPrefix(runId))) {
            wrapped().put(kv.key, null); // a tombstone, as delete() would write, without reading the value back
        }
    }

    /** Before every commit: writes each run's events buffered since the last one, then flushes the store below. */
    @Override
    public void flushCache() {
        writeBuffered();
        super.flushCache();
    }

    @Override
    public void clearCache() {
        forget();
        super.clearCache();
    }

    @Override
    public void close() {
        forget(); // events not written belong to a transaction that is not committed
        super.close();
    }

    /** @return runs with events buffered since the last commit (for tests) */
    int unwritten() {
        return buffered.size();
    }

    private void forget() {
        buffered.clear();
        nextSequence.clear();
    }

    private void writeBuffered() {
        for (Map.Entry<String, List<RunEvent>> e : buffered.entrySet()) {
            String runId = e.getKey();
            int sequence = nextSequence.computeIfAbsent(runId, this::highestSequence);
            List<byte[]> batch = new ArrayList<>(e.getValue().size());
            int bytes = 0;
            for (RunEvent event : e.getValue()) {
                byte[] encoded = batches.encodeEvent(event);
                if (!batch.isEmpty() && bytes + RunEventBatchSerde.LENGTH_BYTES + encoded.length > MAX_BATCH_BYTES) {
                    wrapped().put(StateKeys.batch(runId, sequence++), RunEventBatchSerde.encodeEncoded(batch));
                    batch.clear();
                    bytes = 0;
                }
                batch.add(encoded);
                bytes += RunEventBatchSerde.LENGTH_BYTES + encoded.length;
            }
            wrapped().put(StateKeys.batch(runId, sequence++), RunEventBatchSerde.encodeEncoded(batch));
            nextSequence.put(runId, sequence);
        }
        buffered.clear();
    }

    /** @return the sequence after the run's highest batch in the store (0 when it has none) */
    private int highestSequence(String runId) {
        int highest = -1;
        for (KeyValue<String, byte[]> kv : scan(StateKeys.batchPrefix(runId))) {
            highest = Math.max(highest, StateKeys.batchSequence(runId, kv.key));
        }
        return highest + 1;
    }

    private RunEvent decode(byte[] bytes) {
        return single.deserializer().deserialize(null, bytes);
    }

    /** @return the records whose keys start with the prefix, in key order (the iterator is closed) */
    private List<KeyValue<String, byte[]>> scan(String prefix) {
        List<KeyValue<String, byte[]>> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = wrapped().prefixScan(prefix, KEYS)) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    // The store below, as a KeyValueStore (raw records: what the changelog holds).

    @Override
    public void put(String key, byte[] value) {
        wrapped().put(key, value);
    }

    @Override
    public byte[] putIfAbsent(String key, byte[] value) {
        return wrapped().putIfAbsent(key, value);
    }

    @Override
    public void putAll(List<KeyValue<String, byte[]>> entries) {
        wrapped().putAll(entries);
    }

    @Override
    public byte[] delete(String key) {
        return wrapped().delete(key);
    }

    @Override
    public byte[] get(String key) {
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<String, byte[]> range(String from, String to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseRange(String from, String to) {
        return wrapped().reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> all() {
        return wrapped().all();
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseAll() {
        return wrapped().reverseAll();
    }

    @Override
    public <S extends org.apache.kafka.common.serialization.Serializer<P>, P> KeyValueIterator<String, byte[]>
            prefixScan(P prefix, S prefixKeySerializer) {
        return wrapped().prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }
}

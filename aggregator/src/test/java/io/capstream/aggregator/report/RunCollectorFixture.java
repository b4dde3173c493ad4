package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.aggregator.report.state.RunProgressSerde;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link RunCollector} on a {@link MockProcessorContext} with the report topology's two stores (the
 * progress store over an in-memory one, and the events store; logging off), for tests that feed events and read the
 * forwarded reports, that start a new collector instance on the same stores as a rebalance would ({@link
 * #newInstance}), that commit ({@link #commit}) and that restart from what the changelogs hold ({@link #restart}).
 * The context's system time starts at 1,000 ms. The events store's records written (each one changelog record when
 * logged) are counted in {@link #eventRecordsWritten} and {@link #eventTombstones()}.
 */
abstract class RunCollectorFixture {
    protected final ReportTopologyConfig config;
    protected MockProcessorContext<String, ReportOutput> context;
    /** The events store (write-behind: {@link EventsStore#flushCache} is what a commit calls). */
    protected EventsStore events;
    /** The progress store (write-behind: {@link ProgressStore#flushCache} is what a commit calls). */
    protected ProgressStore progress;
    /** Records (not tombstones) written to the events store below its write-behind buffer. */
    protected final AtomicInteger eventRecordsWritten = new AtomicInteger();
    /** Records and tombstones written to the events store below its write-behind buffer (its keys serialized). */
    private final AtomicInteger eventPuts = new AtomicInteger();

    /** @param registryUrl the config's schema registry URL (a {@code mock://} scope of its own) */
    RunCollectorFixture(String registryUrl) {
        this.config = ReportTopologyConfig.defaults(registryUrl);
    }

    @BeforeEach
    void setUpStores() {
        context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(1_000L);
        newStores();
    }

    private void newStores() {
        progress = ProgressStore.over(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(ReportTopology.PROGRESS_STORE), Serdes.String(), new RunProgressSerde()))
                .withLoggingDisabled().build();
        // the store serializes the key of every put and delete, and the value of every put but a tombstone's
        ByteArraySerializer raw = new ByteArraySerializer();
        var values = Serdes.serdeFrom((topic, bytes) -> {
            eventRecordsWritten.incrementAndGet();
            return raw.serialize(topic, bytes);
        }, Serdes.ByteArray().deserializer());
        StringSerializer key = new StringSerializer();
        var keys = Serdes.serdeFrom((topic, k) -> {
            eventPuts.incrementAndGet();
            return key.serialize(topic, k);
        }, Serdes.String().deserializer());
        events = EventsStore.over(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ReportTopology.EVENTS_STORE),
                keys, values)).withLoggingDisabled().build();
        progress.init(context.getStateStoreContext(), progress);
        events.init(context.getStateStoreContext(), events);
        context.addStateStore(progress);
        context.addStateStore(events);
    }

    /** @return tombstones written to the events store below its write-behind buffer */
    protected int eventTombstones() {
        return eventPuts.get() - eventRecordsWritten.get();
    }

    /** @return a new collector on the shared stores (what a restart or rebalance starts) */
    protected RunCollector newInstance() {
        RunCollector c = new RunCollector(config);
        c.init(context);
        return c;
    }

    /** What Kafka Streams does before each commit: flushes the stores' write-behind buffers. */
    protected void commit() {
        progress.flushCache();
        events.flushCache();
    }

    /**
     * A restart on another machine: new stores that hold only what the last commit wrote (what their changelogs
     * restore), and a new collector on them. The write counters go on.
     *
     * @return the new collector
     */
    protected RunCollector restart() {
        List<KeyValue<String, RunProgress>> progressRecords = new ArrayList<>();
        try (KeyValueIterator<String, RunProgress> it = progress.wrapped().all()) {
            it.forEachRemaining(progressRecords::add);
        }
        List<KeyValue<String, byte[]>> eventRecords = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = events.all()) {
            it.forEachRemaining(eventRecords::add);
        }
        progress.close();
        events.close();
        int written = eventRecordsWritten.get();
        int puts = eventPuts.get();
        newStores();
        progressRecords.forEach(kv -> progress.wrapped().put(kv.key, kv.value));
        eventRecords.forEach(kv -> events.put(kv.key, kv.value));
        eventRecordsWritten.set(written); // the restore is no write
        eventPuts.set(puts);
        return newInstance();
    }

    /** Processes the events in order, each keyed by its run id. */
    protected static void feed(RunCollector c, List<RunEvent> list) {
        for (RunEvent e : list) {
            c.process(new Record<>(e.getRunId(), e, 0L));
        }
    }

    /** @return the reports forwarded since the last call, in order (the forwards are then cleared) */
    protected List<BenchmarkReport> reports() {
        List<BenchmarkReport> out = new ArrayList<>();
        context.forwarded().forEach(f -> {
            if (f.record().value() instanceof ReportOutput.Report r) {
                out.add(r.report());
            }
        });
        context.resetForwards();
        return out;
    }
}

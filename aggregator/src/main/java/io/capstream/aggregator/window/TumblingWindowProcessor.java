package io.capstream.aggregator.window;

import io.capstream.schemas.avro.WindowSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Tumbling event-time windows with emit-on-close, over the re-keyed events
 * ({@code target|model|bucket}, timestamps = event time).
 *
 * <p>Issue 31: requests come combined, a partial aggregate per key, window and commit of a re-keying task
 * ({@link WindowInput.Partial}, {@link RekeyProcessor}), merged into the window's aggregate (every count, sum, sketch
 * bin and bucket count adds up, so the summary is the one of the requests added one by one); requests of one record
 * each, as versions before wrote them, are still read and added one by one. A partial late for its window is merged
 * into the closed window or, later than that, counted in {@code late_dropped} with all its requests.
 *
 * <p>Why not {@code windowedBy(...).emitStrategy(onWindowClose())}: the DSL's window aggregation
 * advances its observed stream time with every record it aggregates, the largest event time seen. Its input
 * here is a partition of the repartition topic, into which every input partition's re-keying task writes; on
 * a backlog those run at their own speeds, minutes apart in event time, and the DSL would close windows before
 * the slower partitions' events arrive. Here a window closes when the {@link InputProgress#closeTime() close
 * time} reaches its end plus the grace: the event time that every input partition that is not idle has
 * reached (each record carries its partition's progress, {@link SourceProgress}). On a live feed the partitions
 * move together and this is the largest event time seen, as before; on a backlog the windows are the same as
 * live. Heartbeats and the progress records advance it too, while only requests are aggregated; each summary is
 * forwarded once when its window closes.
 *
 * <p>The grace (default 10 s) is how far out of order a request may arrive within its own input partition: a
 * generator writes each request when it completes, so this covers the time from completion to the send, not
 * the catch-up after an outage or a restart (that is what the per-partition close time is for).
 *
 * <p>A request that still arrives after its window closed (its own partition was written out of time order, e.g.
 * runs written one after another, each over the same hour; or an idle partition that had in fact fallen behind)
 * is merged into the window's aggregate, which is kept for {@link #MAX_LATENESS} (at most the summaries'
 * retention) after the close, and the window's summary is emitted again within a second ({@link LateRequests}):
 * consumers keep the latest record per key, and the windows end up as on a live feed. Only a request later than
 * that is dropped, and counted: {@code late_dropped} in the window's summary, a Prometheus counter, Kafka Streams'
 * dropped-records sensor, a WARN line.
 *
 * <p>Heartbeats that carry a scrape of the endpoint's metrics ({@code server_samples}, sent by a run with
 * {@code --server-metrics} in time order with its requests) are aggregated per window, target and model
 * ({@link ServerWindowAggregate}) in their own store, {@link WindowTopology#SERVER_STORE} (key
 * {@code <start, 19 digits>|target|model}, value {@link io.capstream.schemas.avro.ServerWindowState}); every
 * summary of that window, target and model carries them in {@code server_metrics}.
 *
 * <p>Store layout (key-value store {@link WindowTopology#AGGREGATES_STORE}, String keys): window
 * aggregates under {@code <start, 19 digits>|target|model|bucket} (so a range scan finds closed
 * windows in start order), the close time reached under {@value #STREAM_TIME_KEY}, closed windows' aggregates under
 * {@value #CLOSED_PREFIX}{@code <start>|target|model|bucket}, the input partitions' progress under
 * {@value InputProgress#PREFIX} and late counts not yet emitted under {@value LateRequests#PREFIX}. The aggregates
 * (open and closed windows') are read and written through {@link WindowAggregateStore}: kept decoded between commits,
 * written once per commit; the other entries directly.
 */
final class TumblingWindowProcessor implements Processor<String, WindowInput, String, WindowSummary> {
    static final String STREAM_TIME_KEY = "~stream-time";
    /**
     * Bucket label under which capstream versions before the server store kept a window's server-metrics aggregate
     * in the aggregates store (a hand-written format): such entries, left in a restored store, are deleted
     * unread when their window closes (that window's summaries then lack server_metrics, once).
     */
    static final String LEGACY_SERVER_BUCKET = "~server";
    /** Store key prefix of the aggregates of closed windows, kept for {@link #latenessMs} to merge late requests. */
    static final String CLOSED_PREFIX = "~closed|";
    /** Most time after its close that a window still takes late requests (bounded by the summaries' retention). */
    static final java.time.Duration MAX_LATENESS = java.time.Duration.ofHours(6);
    /** How often (wall clock) windows whose late count rose are emitted again. */
    static final java.time.Duration LATE_FLUSH_INTERVAL = java.time.Duration.ofSeconds(1);

    private final long sizeMs;
    private final long graceMs;
    private final double relativeAccuracy;
    private final List<RequestCriterion> perRequestSlos;
    private final boolean withGoodput;
    private ProcessorContext<String, WindowSummary> context;
    /** The aggregates (decoded between commits, {@link WindowAggregateStore}) and, through it, the other entries. */
    private WindowAggregateStore aggregates;
    private KeyValueStore<String, byte[]> store;
    private KeyValueStore<String, io.capstream.schemas.avro.ServerWindowState> serverStore;
    private final WindowTopologyConfig config;
    private final long latenessMs;
    private final LateRequestListener listener;
    private InputProgress progress;
    private LateRequests late;
    /** The close time reached: windows with start + size + grace &lt;= this are closed (monotonic). */
    private long observed = Long.MIN_VALUE;
    /** The close time last written to the store ({@link #writeProgress}). */
    private long savedObserved = Long.MIN_VALUE;
    /** Index (start / size) of the last window closed by {@link #emitClosed}; the next scan is due past it. */
    private long closedThrough = Long.MIN_VALUE;

    TumblingWindowProcessor(WindowTopologyConfig config, LateRequestListener listener) {
        this.config = config;
        this.listener = listener;
        this.latenessMs = Math.min(MAX_LATENESS.toMillis(), config.retention().toMillis());
        this.sizeMs = config.windowSize().toMillis();
        this.graceMs = config.grace().toMillis();
        this.relativeAccuracy = config.relativeAccuracy();
        this.perRequestSlos = List.copyOf(config.slos().stream().filter(RequestCriterion::perRequest).toList());
        this.withGoodput = !config.slos().isEmpty();
    }

    @Override
    public void init(ProcessorContext<String, WindowSummary> context) {
        this.context = context;
        this.aggregates = context.getStateStore(WindowTopology.AGGREGATES_STORE);
        this.store = aggregates.bytes();
        this.serverStore = context.getStateStore(WindowTopology.SERVER_STORE);
        byte[] saved = store.get(STREAM_TIME_KEY);
        observed = saved == null ? Long.MIN_VALUE
                : Long.parseLong(new String(saved, java.nio.charset.StandardCharsets.US_ASCII));
        savedObserved = observed;
        closedThrough = Long.MIN_VALUE;
        progress = new InputProgress(store, config.inputPartitions());
        // the close time reached and the input partitions' progress change with nearly every record: written once
        // per commit, just before it (as the aggregates)
        aggregates.beforeFlush(this::writeProgress);
        late = new LateRequests(context, aggregates, context.getStateStore(WindowTopology.SUMMARIES_STORE), listener, config,
                withGoodput);
        context.schedule(LATE_FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> late.flush(observed));
    }

    @Override
    public void process(Record<String, WindowInput> record) {
        long t = record.timestamp();
        WindowInput input = record.value();
        if (input instanceof WindowInput.Beat h) {
            if (!h.samples().isEmpty() && h.target() != null && h.model() != null) {
                aggregateServer(h.target() + WindowKey.SEP + h.model(), t, h.samples());
            }
        } else if (input != null && !RekeyProcessor.HEARTBEAT_KEY.equals(record.key())
                && !RekeyProcessor.PROGRESS_KEY.equals(record.key())) {
            aggregate(record.key(), t, input);
        }
        progress.update(t, SourceProgress.of(record.headers()).orElse(null));
        long closeTime = progress.closeTime();
        if (closeTime > observed) {
            observed = closeTime;
            emitClosed();
        }
    }

    /** Before every commit ({@link WindowAggregateStore#beforeFlush}): the close time reached and the progress. */
    private void writeProgress() {
        if (observed != savedObserved) {
            store.put(STREAM_TIME_KEY, Long.toString(observed).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            savedObserved = observed;
        }
        progress.write();
    }

    private void aggregate(String key, long t, WindowInput input) {
        if (input instanceof WindowInput.Partial p) {
            // issue 31: the requests of one key and window combined by the re-keying step
            String storeKey = target(key, p.windowStart(), t, p.counted());
            if (storeKey == null) {
                return;
            }
            WindowAggregate agg = aggregates.get(storeKey);
            if (agg == null && p.aggregate().relativeAccuracy() == relativeAccuracy) {
                agg = p.aggregate(); // decoded for this record only: taken over
            } else {
                if (agg == null) {
                    agg = new WindowAggregate(relativeAccuracy);
                }
                agg.merge(p.aggregate());
            }
            aggregates.put(storeKey, agg);
            return;
        }
        // one request, as versions before the partials wrote them (still read from the repartition topic)
        if (input instanceof WindowInput.NoRow) {
            return; // fails the §7 validity filter: no row, counted nowhere
        }
        if (!(input instanceof WindowInput.Completed) && !(input instanceof WindowInput.Failed)) {
            return;
        }
        String storeKey = target(key, t - Math.floorMod(t, sizeMs), t, 1);
        if (storeKey == null) {
            return;
        }
        WindowAggregate agg = aggregates.get(storeKey);
        if (agg == null) {
            agg = new WindowAggregate(relativeAccuracy);
        }
        PartialAggregates.add(agg, input, perRequestSlos);
        aggregates.put(storeKey, agg);
    }

    /**
     * Where requests of a window go: its open aggregate, its closed one (a late request, noted for the window's
     * summary to be emitted again), or nowhere (too late even for that: counted in {@code late_dropped}).
     *
     * @param key     the window key, encoded; not null
     * @param start   the window's start, epoch ms
     * @param t       the requests' (largest) event time, for the log
     * @param counted how many requests they are
     * @return the store key of the aggregate to add them to; null when they are dropped
     */
    private String target(String key, long start, long t, long counted) {
        String storeKey = storeKey(start, key);
        if (observed != Long.MIN_VALUE && start + sizeMs + graceMs <= observed) {
            if (start + sizeMs + graceMs + latenessMs <= observed) {
                late.drop(WindowKey.decode(key), start, t, observed, progress, counted);
                return null;
            }
            late.merged(key, start);
            return CLOSED_PREFIX + storeKey; // merged into the closed window, which is emitted again
        }
        return storeKey;
    }

    /**
     * Adds one scrape of the endpoint's metrics to its window's server aggregate (dropped when that closed).
     *
     * @param targetModel {@code target|model}
     */
    private void aggregateServer(String targetModel, long t, Map<String, Double> samples) {
        long start = t - Math.floorMod(t, sizeMs);
        if (observed != Long.MIN_VALUE && start + sizeMs + graceMs <= observed) {
            return;
        }
        String storeKey = storeKey(start, targetModel);
        io.capstream.schemas.avro.ServerWindowState old = serverStore.get(storeKey);
        ServerWindowAggregate agg = old == null ? new ServerWindowAggregate() : new ServerWindowAggregate(old);
        agg.add(t, samples);
        serverStore.put(storeKey, agg.state());
    }

    private void emitClosed() {
        long maxStart = observed - graceMs - sizeMs; // windows with start + size + grace <= observed
        if (maxStart < 0) {
            return;
        }
        // window starts are multiples of the size, and a request of a window at or before the last scan's maxStart
        // goes to the closed windows: the open windows change only when maxStart passes the next start
        long through = Math.floorDiv(maxStart, sizeMs);
        if (through == closedThrough) {
            return;
        }
        closedThrough = through;
        List<String> closed = aggregates.keys(pad(0), pad(maxStart + 1));
        // the server aggregates of the closed windows first (every task gets every scrape: heartbeats are
        // broadcast); each summary of the same window, target and model carries them
        Map<String, Map<String, io.capstream.schemas.avro.ServerWindowSeries>> server = new HashMap<>();
        List<String> summarised = new ArrayList<>();
        try (KeyValueIterator<String, io.capstream.schemas.avro.ServerWindowState> it =
                     serverStore.range(pad(0), pad(maxStart + 1))) {
            while (it.hasNext()) {
                KeyValue<String, io.capstream.schemas.avro.ServerWindowState> kv = it.next();
                server.put(kv.key, new ServerWindowAggregate(kv.value).summary());
                summarised.add(kv.key);
            }
        }
        summarised.forEach(serverStore::delete);
        for (String storeKey : closed) {
            int sep = storeKey.indexOf(WindowKey.SEP);
            long start = Long.parseLong(storeKey.substring(0, sep));
            WindowKey key = WindowKey.decode(storeKey.substring(sep + 1));
            if (LEGACY_SERVER_BUCKET.equals(key.bucket())) {
                aggregates.delete(storeKey); // not an aggregate: deleted unread
                continue;
            }
            WindowAggregate agg = aggregates.get(storeKey);
            WindowAggregate takenAsLate = aggregates.get(CLOSED_PREFIX + storeKey);
            if (takenAsLate != null) {
                // requests taken as late before this close: possible only when the close time ran ahead of the
                // closed windows (a processor initialised again after an aborted transaction could keep its last scan
                // of before; init now reloads it); merged: overwriting the closed aggregate lost those requests
                agg.merge(takenAsLate);
            }
            WindowSummary summary = SummaryBuilder.build(key, start, start + sizeMs, agg, withGoodput);
            summary.setServerMetrics(server.get(storeKey.substring(0, sep) + WindowKey.SEP + key.targetModel()));
            aggregates.delete(storeKey);
            aggregates.put(CLOSED_PREFIX + storeKey, agg); // kept for late requests
            context.forward(new Record<>(key.summaryKey(start), summary, start + sizeMs));
        }
        long expired = maxStart - latenessMs; // closed windows that take no more late requests
        if (expired > 0) {
            aggregates.keys(CLOSED_PREFIX + pad(0), CLOSED_PREFIX + pad(expired)).forEach(aggregates::delete);
        }
    }

    static String storeKey(long windowStart, String key) {
        return pad(windowStart) + WindowKey.SEP + key;
    }

    /** @return {@code v} with leading zeros to 19 digits (String.format was a tenth of the window step's CPU) */
    static String pad(long v) {
        if (v < 0) {
            return String.format("%019d", v);
        }
        String digits = Long.toString(v);
        return "0".repeat(19 - digits.length()) + digits;
    }
}

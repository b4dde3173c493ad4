package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tumbling event-time windows with emit-on-close, over the re-keyed events
 * ({@code target|model|bucket}, timestamps = event time).
 *
 * <p>Why not {@code windowedBy(...).emitStrategy(onWindowClose())}: the DSL's window aggregation
 * advances its observed stream time only with records it aggregates (null keys are dropped
 * first), so a heartbeat would have to create a window of its own to close the others. Here
 * every record, heartbeats included, advances this processor's observed stream time (the max
 * event time seen, kept in the store so it survives restarts), while only requests are
 * aggregated. A window {@code [start, start + size)} closes, and its summary is forwarded exactly
 * once, when observed stream time reaches {@code start + size + grace}. Requests for a window
 * that is already closed are dropped (counted in the log at debug level).
 *
 * <p>Heartbeats that carry a scrape of the endpoint's metrics ({@code server_samples}, sent by a run with
 * {@code --server-metrics} in time order with its requests) are aggregated per window, target and model
 * ({@link ServerWindowAggregate}); every summary of that window, target and model carries them in
 * {@code server_metrics}.
 *
 * <p>Store layout (key-value store {@link WindowTopology#AGGREGATES_STORE}, String keys): window
 * aggregates under {@code <start, 19 digits>|target|model|bucket} (so a range scan finds closed
 * windows in start order), server aggregates under {@code <start>|target|model|}{@value #SERVER_BUCKET},
 * and the observed stream time under {@value #STREAM_TIME_KEY}.
 */
final class TumblingWindowProcessor implements Processor<String, RunEvent, String, WindowSummary> {
    static final String STREAM_TIME_KEY = "~stream-time";
    /** Bucket label of a window's server-metrics aggregate in the store (no context bucket is named so). */
    static final String SERVER_BUCKET = "~server";
    private static final Logger LOG = LoggerFactory.getLogger(TumblingWindowProcessor.class);

    private final long sizeMs;
    private final long graceMs;
    private final double relativeAccuracy;
    private final List<RequestCriterion> perRequestSlos;
    private final boolean withGoodput;
    private ProcessorContext<String, WindowSummary> context;
    private KeyValueStore<String, byte[]> store;
    private long observed = Long.MIN_VALUE;

    TumblingWindowProcessor(WindowTopologyConfig config) {
        this.sizeMs = config.windowSize().toMillis();
        this.graceMs = config.grace().toMillis();
        this.relativeAccuracy = config.relativeAccuracy();
        this.perRequestSlos = List.copyOf(config.slos().stream().filter(RequestCriterion::perRequest).toList());
        this.withGoodput = !config.slos().isEmpty();
    }

    @Override
    public void init(ProcessorContext<String, WindowSummary> context) {
        this.context = context;
        this.store = context.getStateStore(WindowTopology.AGGREGATES_STORE);
        byte[] saved = store.get(STREAM_TIME_KEY);
        if (saved != null) {
            observed = Long.parseLong(new String(saved, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @Override
    public void process(Record<String, RunEvent> record) {
        long t = record.timestamp();
        RunEvent event = record.value();
        if (event != null && !RekeyProcessor.HEARTBEAT_KEY.equals(record.key())) {
            aggregate(record.key(), t, event.getPayload());
        } else if (event != null && event.getPayload() instanceof Heartbeat h && !h.getServerSamples().isEmpty()
                && h.getTarget() != null && h.getModel() != null) {
            aggregateServer(new WindowKey(h.getTarget(), h.getModel(), SERVER_BUCKET).encode(), t, h.getServerSamples());
        }
        if (t > observed) {
            observed = t;
            store.put(STREAM_TIME_KEY, Long.toString(t).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            emitClosed();
        }
    }

    private void aggregate(String key, long t, Object payload) {
        long start = t - Math.floorMod(t, sizeMs);
        if (observed != Long.MIN_VALUE && start + sizeMs + graceMs <= observed) {
            LOG.debug("dropping late request for closed window {} of {} (event time {}, stream time {})",
                    start, key, t, observed);
            return;
        }
        String storeKey = storeKey(start, key);
        byte[] old = store.get(storeKey);
        WindowAggregate agg = old == null ? new WindowAggregate(relativeAccuracy) : WindowAggregate.fromBytes(old);
        if (payload instanceof RequestCompleted c) {
            Optional<RequestSample> sample = RequestSamples.from(c);
            if (sample.isEmpty()) {
                return; // fails the §7 validity filter: no row, counted nowhere
            }
            boolean good = perRequestSlos.stream().allMatch(s -> s.metBy(sample.get()));
            agg.addCompleted(sample.get(), good);
        } else if (payload instanceof RequestFailed f) {
            agg.addFailed(f.getErrorType());
        } else {
            return;
        }
        store.put(storeKey, agg.toBytes());
    }

    /** Adds one scrape of the endpoint's metrics to its window's server aggregate (dropped when that closed). */
    private void aggregateServer(String key, long t, Map<String, Double> samples) {
        long start = t - Math.floorMod(t, sizeMs);
        if (observed != Long.MIN_VALUE && start + sizeMs + graceMs <= observed) {
            return;
        }
        String storeKey = storeKey(start, key);
        byte[] old = store.get(storeKey);
        ServerWindowAggregate agg = old == null ? new ServerWindowAggregate() : ServerWindowAggregate.fromBytes(old);
        agg.add(t, samples);
        store.put(storeKey, agg.toBytes());
    }

    private void emitClosed() {
        long maxStart = observed - graceMs - sizeMs; // windows with start + size + grace <= observed
        if (maxStart < 0) {
            return;
        }
        List<KeyValue<String, byte[]>> closed = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(pad(0), pad(maxStart + 1))) {
            while (it.hasNext()) {
                closed.add(it.next());
            }
        }
        // the server aggregates of the closed windows first (every task gets every scrape: heartbeats are
        // broadcast); each summary of the same window, target and model carries them
        Map<String, Map<String, io.capstream.schemas.avro.ServerWindowSeries>> server = new HashMap<>();
        List<KeyValue<String, byte[]>> windows = new ArrayList<>(closed.size());
        for (KeyValue<String, byte[]> kv : closed) {
            int sep = kv.key.indexOf(WindowKey.SEP);
            WindowKey key = WindowKey.decode(kv.key.substring(sep + 1));
            if (SERVER_BUCKET.equals(key.bucket())) {
                server.put(kv.key.substring(0, sep) + WindowKey.SEP + key.targetModel(),
                        ServerWindowAggregate.fromBytes(kv.value).summary());
                store.delete(kv.key);
            } else {
                windows.add(kv);
            }
        }
        for (KeyValue<String, byte[]> kv : windows) {
            int sep = kv.key.indexOf(WindowKey.SEP);
            long start = Long.parseLong(kv.key.substring(0, sep));
            WindowKey key = WindowKey.decode(kv.key.substring(sep + 1));
            WindowSummary summary = SummaryBuilder.build(key, start, start + sizeMs,
                    WindowAggregate.fromBytes(kv.value), withGoodput);
            summary.setServerMetrics(server.get(kv.key.substring(0, sep) + WindowKey.SEP + key.targetModel()));
            store.delete(kv.key);
            context.forward(new Record<>(key.summaryKey(start), summary, start + sizeMs));
        }
    }

    static String storeKey(long windowStart, String key) {
        return pad(windowStart) + WindowKey.SEP + key;
    }

    private static String pad(long v) {
        return String.format("%019d", v);
    }
}

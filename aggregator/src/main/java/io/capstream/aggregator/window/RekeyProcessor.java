package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import java.time.Duration;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Re-keys request events from run id to {@code target|model|bucket} and combines them per window (issue 31): the
 * requests it reads are aggregated in memory per window key and window ({@link PartialAggregates}: the window step's
 * {@link WindowAggregate}, with the §7 row values computed here once and the per-request SLOs' {@code good} count),
 * and each partial is forwarded once per flush ({@link WindowInput.Partial}, timestamp = its largest event time), so
 * that the repartition topic carries one record per key, window and commit instead of one per request (Kafka
 * Streams' per-record work, the producer's send and the window task's polling and queues were most of the window
 * topology's time). Heartbeats are forwarded as they come (key {@link #HEARTBEAT_KEY}, value a
 * {@link WindowInput.Beat}); run start/finish events and requests without a §7 row only move the event time on.
 *
 * <p><b>Exactly-once.</b> A flush forwards every buffered partial, then the progress (below). It runs before every
 * commit of the task ({@link CommitHookStore}: Kafka Streams flushes its stores' caches before it flushes the
 * producer and commits the transaction with the input offsets), when the buffer passes {@link #MAX_PARTIALS}, and
 * before the punctuator sends anything. So the partials are in the transaction that commits the offsets of the
 * requests in them: after kill -9 or any aborted transaction both are rolled back together and the requests are
 * read and combined again, nothing lost and nothing counted twice; a task initialised again drops its buffer
 * ({@link #init}).
 *
 * <p><b>Progress.</b> The window step closes a window only when every input partition has passed it
 * ({@link TumblingWindowProcessor}), from the progress of each input partition ({@link SourceProgress}: the partition
 * and the largest event time re-keyed from it). The progress claimed never covers a request still buffered: it is
 * sent (key {@link #PROGRESS_KEY}, null value, to every window partition, {@link HeartbeatBroadcastPartitioner}) at
 * the end of a flush, after the partials, and the records forwarded between flushes (partials, heartbeats) carry
 * only the progress as of the last flush. Records to one window partition keep their order, so a window partition
 * sees a partition's progress only after every partial with requests read before it. Once a second (wall clock) the
 * punctuator flushes too, and when its partition had no record for {@code idleAfter} since the task runs (caught up,
 * or never written), it sends once that the partition is idle, so that it does not hold windows open. While an idle
 * partition's latest event is recent ({@link #LIVE_FEED_LAG}: a live feed whose traffic stopped, not a replay of old
 * events), its progress then follows the wall clock less {@link #IDLE_CLOCK_MARGIN}, once a second, so that the
 * windows of a run that ended close without waiting for the next run's traffic (issue 31).
 */
final class RekeyProcessor implements Processor<String, RunEvent, String, WindowInput> {
    /** Key of heartbeats on the re-keyed stream (never a valid window key: it has no separator). */
    static final String HEARTBEAT_KEY = "~heartbeat";
    /** Key of the progress records (null value) sent to every window partition. */
    static final String PROGRESS_KEY = "~progress";
    /** How often (wall clock) the progress is sent to every window partition when it changed. */
    static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(1);
    /**
     * Issue 31: how far behind the wall clock an idle partition of a live feed claims its event time is. A request is
     * stamped when it ends and reaches the topic well within this, so a later one is at most this late (and then
     * merged into its window as an update, not lost); it covers clock differences between generator and aggregator.
     */
    static final Duration IDLE_CLOCK_MARGIN = Duration.ofSeconds(2);
    /**
     * Issue 31: an idle partition whose latest event is at most this far behind the wall clock is a live feed whose
     * traffic stopped; one further behind (a replay of old events, a backlog) keeps its event time.
     */
    static final Duration LIVE_FEED_LAG = Duration.ofMinutes(10);
    /**
     * Most partials (key and window pairs, a few KB each) buffered before a flush that is not yet due: bounds the
     * task's memory as the record cache's size bounds a caching store (a flush is correct at any time).
     */
    static final int MAX_PARTIALS = 1024;

    private static final long NOT_RUNNING_YET = Long.MIN_VALUE;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RekeyProcessor.class);

    private final ContextBuckets buckets;
    private final long idleAfterMs;
    private final PartialAggregates partials;
    private final String hookStore;
    private final String replaysStore;
    private final ReplayedRuns replays = new ReplayedRuns();
    private ProcessorContext<String, WindowInput> context;
    /** This processor's node, to forward from the commit hook as Kafka Streams' caches do; null outside a task. */
    private org.apache.kafka.streams.processor.internals.ProcessorNode<?, ?, ?, ?> node;
    private int source;
    private long maxEventTime = Long.MIN_VALUE;
    private long broadcastEventTime = Long.MIN_VALUE;
    private boolean idleSent;
    /** Wall-clock time of the last punctuation that saw a record processed since the one before, ms. */
    private long lastRecordWallMs;
    private boolean recordSinceLastPunctuation;
    /** The last request's target, model and planned context, and its encoded window key ({@link #windowKey}). */
    private String lastTarget = "";
    private String lastModel = "";
    private int lastPlanned = Integer.MIN_VALUE;
    private String lastKey;

    /**
     * @param config    window settings (context buckets, source idle time, window size, accuracy, SLOs); not null
     * @param hookStore    name of its {@link CommitHookStore}, connected to it
     * @param replaysStore name of its {@link ReplayedRuns} store, connected to it
     */
    RekeyProcessor(WindowTopologyConfig config, String hookStore, String replaysStore) {
        this.buckets = config.buckets();
        this.idleAfterMs = config.sourceIdle().toMillis();
        this.partials = new PartialAggregates(config.windowSize().toMillis(), config.relativeAccuracy(), config.slos());
        this.hookStore = hookStore;
        this.replaysStore = replaysStore;
    }

    @Override
    public void init(ProcessorContext<String, WindowInput> context) {
        this.context = context;
        // the task of sub-topology 0 that reads input partition p has partition p
        this.source = context.taskId().partition();
        // not now: a task is initialised before it restores its state and runs; idle time counts from when it runs
        this.lastRecordWallMs = NOT_RUNNING_YET;
        // initialised again (a task revived after an aborted transaction): what was buffered and sent since the last
        // commit was rolled back, and is read again
        partials.clear();
        maxEventTime = Long.MIN_VALUE;
        broadcastEventTime = Long.MIN_VALUE;
        idleSent = false;
        recordSinceLastPunctuation = false;
        this.node = context instanceof org.apache.kafka.streams.processor.internals.InternalProcessorContext<?, ?> c
                ? c.currentNode() : null;
        CommitHookStore hook = context.getStateStore(hookStore);
        hook.beforeCommit(this::flushBeforeCommit);
        replays.init(context.getStateStore(replaysStore));
        context.schedule(PROGRESS_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, RunEvent> record) {
        recordSinceLastPunctuation = true;
        idleSent = false;
        RunEvent event = record.value();
        if (event == null || replays.isReplay(record.key(), event.getPayload())) {
            return; // a replay's requests were counted when they first ran (ReplayedRuns)
        }
        long t = EventTimes.of(event);
        if (t < 0) {
            return;
        }
        Object p = event.getPayload();
        String key;
        if (p instanceof RequestCompleted c) {
            key = windowKey(c.getTarget(), c.getModel(), c.getPlannedContextTokens());
        } else if (p instanceof RequestFailed f) {
            key = windowKey(f.getTarget(), f.getModel(), f.getPlannedContextTokens());
        } else if (p instanceof Heartbeat) {
            key = HEARTBEAT_KEY;
        } else {
            return;
        }
        WindowInput input = WindowInput.of(p).orElseThrow(); // a request or a heartbeat: never empty
        maxEventTime = Math.max(maxEventTime, t);
        if (input instanceof WindowInput.Beat) {
            // as it comes, with the progress as of the last flush (its own time is sent with the next flush's)
            context.forward(new Record<>(key, input, t, flushedProgress().addTo(record.headers())));
        } else {
            partials.add(key, t, input); // a request without a §7 row (NoRow) only moved the time on
            if (partials.size() > MAX_PARTIALS) {
                flush();
            }
        }
    }

    /**
     * @return the encoded window key of a request; the last one again when target, model and planned context are
     *         those of the request before (a run's requests come in a row: no label and key strings built per request,
     *         and the same key object lets {@link PartialAggregates} find its partial without hashing)
     */
    private String windowKey(String target, String model, int plannedContextTokens) {
        if (plannedContextTokens != lastPlanned || !target.equals(lastTarget) || !model.equals(lastModel)) {
            lastKey = new WindowKey(target, model, buckets.label(plannedContextTokens)).encode();
            lastTarget = target;
            lastModel = model;
            lastPlanned = plannedContextTokens;
        }
        return lastKey;
    }

    /**
     * Keeps the buffer: Kafka Streams commits a task before it closes its processors when it closes it cleanly, and
     * if it ever closed them first the commit hook still forwards the buffer before that commit; on a dirty close
     * the hook store is closed too (nothing forwarded) and {@link #init} drops the buffer of a task revived.
     */
    @Override
    public void close() {
    }

    /** @return this partition's progress as the window partitions last got it (carried between flushes) */
    private SourceProgress flushedProgress() {
        return new SourceProgress(source, broadcastEventTime, false);
    }

    /**
     * Before every commit ({@link CommitHookStore}): Kafka Streams calls it outside any processor, so this processor's
     * node and a record context are set around the flush as its caches do when they forward on a commit.
     */
    private void flushBeforeCommit() {
        if (partials.isEmpty() && maxEventTime <= broadcastEventTime) {
            return;
        }
        if (!(context instanceof org.apache.kafka.streams.processor.internals.InternalProcessorContext<?, ?> c)
                || node == null) {
            flush();
            return;
        }
        org.apache.kafka.streams.processor.internals.ProcessorNode<?, ?, ?, ?> previousNode = c.currentNode();
        org.apache.kafka.streams.processor.internals.ProcessorRecordContext previousContext = c.recordContext();
        c.setCurrentNode(node);
        // as for a punctuation: no input record
        c.setRecordContext(new org.apache.kafka.streams.processor.internals.ProcessorRecordContext(
                c.currentSystemTimeMs(), -1L, -1, null, new RecordHeaders()));
        try {
            flush();
        } finally {
            c.setCurrentNode(previousNode);
            c.setRecordContext(previousContext);
        }
    }

    /**
     * Forwards every buffered partial (with the progress as of the last flush), then this partition's progress to
     * every window partition when it advanced: the window partitions see the progress only after the requests.
     */
    private void flush() {
        SourceProgress flushed = flushedProgress();
        for (PartialAggregates.Partial p : partials.drain()) {
            context.forward(new Record<>(p.key(), new WindowInput.Partial(p.windowStart(), p.aggregate()),
                    p.maxTime(), flushed.addTo(new RecordHeaders())));
        }
        if (maxEventTime > broadcastEventTime) {
            send(false, maxEventTime);
            broadcastEventTime = maxEventTime;
        }
    }

    private void punctuate(long nowMs) {
        flush(); // the partials first: a progress record must not overtake the requests it covers
        // activity is noted here, not in process(): the stream thread's clock is read once per loop, and one loop
        // over a large batch on a loaded machine can take longer than idleAfter
        if (recordSinceLastPunctuation || lastRecordWallMs == NOT_RUNNING_YET) {
            lastRecordWallMs = nowMs;
            recordSinceLastPunctuation = false;
        }
        if (nowMs - lastRecordWallMs >= idleAfterMs) {
            if (!idleSent) {
                LOG.info("input partition {} idle: no record for {} ms (largest event time {})", source,
                        nowMs - lastRecordWallMs, maxEventTime == Long.MIN_VALUE ? "-" : java.time.Instant.ofEpochMilli(maxEventTime));
                send(true, maxEventTime);
                broadcastEventTime = maxEventTime;
                idleSent = true;
            }
            long clock = nowMs - IDLE_CLOCK_MARGIN.toMillis();
            if (maxEventTime != Long.MIN_VALUE && nowMs - maxEventTime <= LIVE_FEED_LAG.toMillis()
                    && clock > broadcastEventTime) {
                // a live feed whose traffic stopped: its event time follows the wall clock, so that the last
                // windows of a run close (and reach summaries, alerts, /metrics and OTLP) without further traffic
                send(true, clock);
                broadcastEventTime = clock;
            }
        }
    }

    private void send(boolean idle, long eventTime) {
        SourceProgress progress = new SourceProgress(source, eventTime, idle);
        context.forward(new Record<String, WindowInput>(PROGRESS_KEY, null, Math.max(0, eventTime),
                progress.addTo(new RecordHeaders())));
    }
}

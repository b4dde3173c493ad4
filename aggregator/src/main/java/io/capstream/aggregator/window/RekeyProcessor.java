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
 * Re-keys request events from run id to {@code target|model|bucket} and sets each record's
 * timestamp to its event time ({@link EventTimes}); heartbeats get the key
 * {@link #HEARTBEAT_KEY}; run start/finish events are dropped. The value it writes is only what the window step
 * needs of the event ({@link WindowInput}: a request's §7 row values, computed here once), not the event.
 *
 * <p>Every record it writes carries the progress of its input partition ({@link SourceProgress}: the partition
 * and the largest event time re-keyed from it so far), so that the window step can close a window only when
 * every input partition has passed it ({@link TumblingWindowProcessor}). Once a second (wall clock) it also
 * sends that progress to every window partition on its own (key {@link #PROGRESS_KEY}, null value, see
 * {@link HeartbeatBroadcastPartitioner}) when it advanced, since a partition's requests reach only the window
 * partitions of their keys; and when its partition had no record for {@code idleAfter} since the task runs (caught
 * up, or never written), it sends once that the partition is idle, so that it does not hold windows open. While
 * an idle partition's latest event is recent ({@link #LIVE_FEED_LAG}: a live feed whose traffic stopped, not a replay of
 * old events), its progress then follows the wall clock less {@link #IDLE_CLOCK_MARGIN}, once a second, so that the
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

    private static final long NOT_RUNNING_YET = Long.MIN_VALUE;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RekeyProcessor.class);

    private final ContextBuckets buckets;
    private final long idleAfterMs;
    private ProcessorContext<String, WindowInput> context;
    private int source;
    private long maxEventTime = Long.MIN_VALUE;
    private long broadcastEventTime = Long.MIN_VALUE;
    private boolean idleSent;
    /** Wall-clock time of the last punctuation that saw a record processed since the one before, ms. */
    private long lastRecordWallMs;
    private boolean recordSinceLastPunctuation;

    /**
     * @param buckets   context buckets; not null
     * @param idleAfter how long without any record (wall clock) makes the input partition idle; &gt; 0
     */
    RekeyProcessor(ContextBuckets buckets, Duration idleAfter) {
        this.buckets = buckets;
        this.idleAfterMs = idleAfter.toMillis();
    }

    @Override
    public void init(ProcessorContext<String, WindowInput> context) {
        this.context = context;
        // the task of sub-topology 0 that reads input partition p has partition p
        this.source = context.taskId().partition();
        // not now: a task is initialised before it restores its state and runs; idle time counts from when it runs
        this.lastRecordWallMs = NOT_RUNNING_YET;
        context.schedule(PROGRESS_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, RunEvent> record) {
        recordSinceLastPunctuation = true;
        idleSent = false;
        RunEvent event = record.value();
        if (event == null) {
            return;
        }
        long t = EventTimes.of(event);
        if (t < 0) {
            return;
        }
        Object p = event.getPayload();
        String key;
        if (p instanceof RequestCompleted c) {
            key = new WindowKey(c.getTarget(), c.getModel(), buckets.label(c.getPlannedContextTokens())).encode();
        } else if (p instanceof RequestFailed f) {
            key = new WindowKey(f.getTarget(), f.getModel(), buckets.label(f.getPlannedContextTokens())).encode();
        } else if (p instanceof Heartbeat) {
            key = HEARTBEAT_KEY;
        } else {
            return;
        }
        WindowInput input = WindowInput.of(p).orElseThrow(); // a request or a heartbeat: never empty
        maxEventTime = Math.max(maxEventTime, t);
        context.forward(new Record<>(key, input, t,
                new SourceProgress(source, maxEventTime, false).addTo(record.headers())));
    }

    private void punctuate(long nowMs) {
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
        } else if (maxEventTime > broadcastEventTime) {
            send(false, maxEventTime);
            broadcastEventTime = maxEventTime;
        }
    }

    private void send(boolean idle, long eventTime) {
        SourceProgress progress = new SourceProgress(source, eventTime, idle);
        context.forward(new Record<String, WindowInput>(PROGRESS_KEY, null, Math.max(0, eventTime),
                progress.addTo(new RecordHeaders())));
    }
}

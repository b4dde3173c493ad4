package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Re-keys request events from run id to {@code target|model|bucket} and sets each record's
 * timestamp to its event time ({@link EventTimes}); heartbeats get the key
 * {@link #HEARTBEAT_KEY}; run start/finish events are dropped.
 */
final class RekeyProcessor implements Processor<String, RunEvent, String, RunEvent> {
    /** Key of heartbeats on the re-keyed stream (never a valid window key: it has no separator). */
    static final String HEARTBEAT_KEY = "~heartbeat";

    private final ContextBuckets buckets;
    private ProcessorContext<String, RunEvent> context;

    RekeyProcessor(ContextBuckets buckets) {
        this.buckets = buckets;
    }

    @Override
    public void init(ProcessorContext<String, RunEvent> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, RunEvent> record) {
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
        context.forward(record.withKey(key).withTimestamp(t));
    }
}

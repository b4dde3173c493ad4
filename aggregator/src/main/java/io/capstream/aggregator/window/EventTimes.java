package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;

/**
 * Event time of the events that drive windows, epoch ms: a request's wall-clock completion
 * ({@code completed_at_epoch_ms}; the envelope's {@code emitted_at_ms} when that is 0, e.g. old
 * producers), a heartbeat's {@code emitted_at_ms}.
 */
public final class EventTimes {
    private EventTimes() {
    }

    /**
     * @param event the event; not null
     * @return its event time in epoch ms, or -1 for events that do not drive windows
     *         (RunStarted, RunFinished)
     */
    public static long of(RunEvent event) {
        Object p = event.getPayload();
        long t;
        if (p instanceof RequestCompleted c) {
            t = c.getCompletedAtEpochMs();
        } else if (p instanceof RequestFailed f) {
            t = f.getCompletedAtEpochMs();
        } else if (p instanceof Heartbeat) {
            t = event.getEmittedAtMs();
        } else {
            return -1;
        }
        return t > 0 ? t : event.getEmittedAtMs();
    }
}

package io.capstream.aggregator.events;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;

/**
 * What one record on {@code capstream.events} may claim. The aggregator sizes its state and its
 * reports from what events say (a RunStarted's {@code requests} becomes a bit set, the list of
 * missing indices of an incomplete report and rows of the artifact), so an event outside these
 * bounds is dead-lettered by {@link EventsSource} instead of being processed: one valid 387-byte
 * RunStarted claiming 3,000,000 requests once made a 40 MB report at the incomplete-run deadline
 * and stopped Kafka Streams for good (issue 11).
 *
 * <p>The bounds are those of the load generator ({@code RunConfig.MAX_REQUESTS}, checked equal by a
 * test of the cli module), so no event a capstream generator or importer sends is affected. Stateless
 * and thread-safe.
 */
public final class EventBounds {
    /** Most requests a run may plan: {@code RunConfig.MAX_REQUESTS} of the load generator. */
    public static final int MAX_REQUESTS = 100_000;
    /**
     * Largest event value accepted, bytes (wire format, before decoding): 512 KiB. The largest event
     * capstream sends is a RunStarted with a 100,000-entry context plan, about 300 KB; events are
     * stored in the report topology's changelog, whose records must stay below the broker's limit.
     */
    public static final int MAX_EVENT_BYTES = 512 * 1024;

    private EventBounds() {
    }

    /**
     * @param valueBytes size of the record's value, bytes (&gt;= 0)
     * @return why a value of this size is refused, or null when it is accepted
     */
    public static String sizeViolation(int valueBytes) {
        return valueBytes > MAX_EVENT_BYTES
                ? "event of " + valueBytes + " bytes is larger than the " + MAX_EVENT_BYTES + " bytes an event may have"
                : null;
    }

    /**
     * @param event a decoded event; not null
     * @return why the event is outside the bounds (naming the field, its value and the bound), or
     *         null when it is within them
     */
    public static String violation(RunEvent event) {
        Object payload = event.getPayload();
        if (payload instanceof RunStarted s) {
            if (s.getRequests() < 0 || s.getRequests() > MAX_REQUESTS) {
                return "RunStarted.requests = " + s.getRequests() + " is outside 0.." + MAX_REQUESTS;
            }
            int planned = s.getPlannedContextTokens() == null ? 0 : s.getPlannedContextTokens().size();
            if (planned > MAX_REQUESTS) {
                return "RunStarted.planned_context_tokens has " + planned + " entries, more than " + MAX_REQUESTS;
            }
            if (s.getExpectedWorkers() > MAX_REQUESTS) {
                return "RunStarted.expected_workers = " + s.getExpectedWorkers() + " is more than " + MAX_REQUESTS;
            }
        } else if (payload instanceof RequestCompleted c) {
            return indexViolation("RequestCompleted", c.getRequestIndex());
        } else if (payload instanceof RequestFailed f) {
            return indexViolation("RequestFailed", f.getRequestIndex());
        } else if (payload instanceof RunFinished f) {
            if (f.getRequestsSent() < 0 || f.getRequestsSent() > MAX_REQUESTS) {
                return "RunFinished.requests_sent = " + f.getRequestsSent() + " is outside 0.." + MAX_REQUESTS;
            }
        }
        return null;
    }

    private static String indexViolation(String type, int index) {
        return index < 0 || index >= MAX_REQUESTS
                ? type + ".request_index = " + index + " is outside 0.." + (MAX_REQUESTS - 1)
                : null;
    }
}

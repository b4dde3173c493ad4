package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import java.util.Map;
import java.util.Optional;

/**
 * What the window step takes from one event: the value of the repartition topic between the re-keying step
 * ({@link RekeyProcessor}) and the window step ({@link TumblingWindowProcessor}), written by {@link WindowInputSerde}.
 *
 * <p>Why not the event itself: the window step needs a request's §7 row values, not the event (a few hundred bytes of
 * Avro with ids, token counts and chunk timings); encoding the whole event for the repartition topic and decoding it
 * again was about a quarter of the window topology's CPU (issue 31). The row is computed once, in the re-keying step,
 * by the report's row code ({@link RequestSamples}), and only its values cross the topic.
 */
sealed interface WindowInput {
    /**
     * A completed request with its §7 row values.
     *
     * @param sample the values; not null
     */
    record Completed(RequestSample sample) implements WindowInput {
    }

    /** A completed request that fails the §7 validity filter: no row, counted nowhere (it still moves the time on). */
    record NoRow() implements WindowInput {
    }

    /**
     * A failed or cancelled request.
     *
     * @param errorType its error type; null when the event has none
     * @param cancelled true when the client cancelled it on purpose (issue 30): not a failure
     */
    record Failed(String errorType, boolean cancelled) implements WindowInput {
    }

    /**
     * Issue 31: the requests of one window key and one window that one re-keying task read between two of its
     * flushes (a commit, a punctuation, or a full buffer), aggregated there ({@link PartialAggregates}), so that the
     * repartition topic carries one record per key, window and flush instead of one per request. The window step
     * merges it into the window's aggregate as it would have added each request.
     *
     * @param windowStart the window's start, epoch ms (a multiple of the window size)
     * @param aggregate   the requests' aggregate, completed, failed and cancelled ones, the SLO's good ones
     *                    included; not null, not empty
     */
    record Partial(long windowStart, WindowAggregate aggregate) implements WindowInput {
        /** @return its requests as counted in {@code late_dropped}: completed, failed and cancelled */
        public long counted() {
            return aggregate.requests() + aggregate.cancelled();
        }
    }

    /**
     * A generator's heartbeat (moves the time on in every window task), with its scrape of the endpoint's metrics.
     *
     * @param target  the target base URL; null when the heartbeat has none
     * @param model   the model; null when the heartbeat has none
     * @param samples the scraped metrics by name; empty when none; not null
     */
    record Beat(String target, String model, Map<String, Double> samples) implements WindowInput {
        /** Copies the samples. */
        public Beat {
            samples = Map.copyOf(samples);
        }
    }

    /**
     * @param payload an event's payload; may be null
     * @return what the window step takes from it; empty for events that are not requests or heartbeats
     */
    static Optional<WindowInput> of(Object payload) {
        if (payload instanceof RequestCompleted c) {
            return Optional.of(RequestSamples.from(c).<WindowInput>map(Completed::new).orElseGet(NoRow::new));
        } else if (payload instanceof RequestFailed f) {
            return Optional.of(new Failed(f.getErrorType(), f.getCancelled()));
        } else if (payload instanceof Heartbeat h) {
            return Optional.of(new Beat(h.getTarget(), h.getModel(),
                    h.getServerSamples() == null ? Map.of() : h.getServerSamples()));
        }
        return Optional.empty();
    }

    /**
     * @param event an event; may be null
     * @return what the window step takes from it; empty for null and for events that are not requests or heartbeats
     */
    static Optional<WindowInput> of(RunEvent event) {
        return event == null ? Optional.empty() : of(event.getPayload());
    }
}

package io.capstream.aggregator.runtime;

import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.streams.KafkaStreams;

/**
 * A Kafka Streams application did not reach {@code RUNNING}: it stopped or failed while starting
 * ({@link #timedOut()} false), or the start-up timeout passed first ({@link #timedOut()} true).
 * Thrown by {@link StreamsRuntime#awaitRunning(Duration)}; callers that print their own message
 * read {@link #state()} and {@link #timedOut()}.
 */
public final class StreamsStartException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @serial the client's state when the wait ended */
    private final KafkaStreams.State state;
    /** @serial true when the timeout passed before start-up settled */
    private final boolean timedOut;

    /**
     * @param name     what was starting (e.g. {@code "report aggregator"}); not null
     * @param state    the client's state when the wait ended; not null
     * @param timedOut true when the timeout passed before start-up settled
     * @param timeout  the start-up timeout; not null
     */
    public StreamsStartException(String name, KafkaStreams.State state, boolean timedOut, Duration timeout) {
        super(timedOut
                ? "the " + name + " did not start within " + timeout.toMillis() + " ms (Kafka Streams state " + state + ")"
                : "the " + name + " stopped while starting (Kafka Streams state " + state + ", see the log above)");
        this.state = Objects.requireNonNull(state, "state");
        this.timedOut = timedOut;
    }

    /** @return the client's state when the wait ended; never null */
    public KafkaStreams.State state() {
        return state;
    }

    /** @return true when the timeout passed before the client reached RUNNING or stopped */
    public boolean timedOut() {
        return timedOut;
    }
}

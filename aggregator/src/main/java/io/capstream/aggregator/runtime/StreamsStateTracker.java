package io.capstream.aggregator.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;

/**
 * Follows the states a Kafka Streams client goes through (it is the client's
 * {@link KafkaStreams.StateListener}) and answers the three questions its owner asks: did it
 * reach {@code RUNNING} (or stop before), why did it fail, and has it stopped. Kept apart from
 * {@link StreamsRuntime} so that this logic is tested without a broker, by feeding transitions.
 *
 * <ul>
 *   <li>Start-up is settled by the first {@code RUNNING}, {@code PENDING_ERROR}, {@code ERROR},
 *       {@code PENDING_SHUTDOWN} or {@code NOT_RUNNING}.</li>
 *   <li>The failure is set by {@code PENDING_ERROR} and {@code ERROR} (the latest of them), never
 *       cleared.</li>
 *   <li>The client has stopped at {@code ERROR} or {@code NOT_RUNNING}, or when {@link #markClosed()}
 *       was called.</li>
 * </ul>
 *
 * <p>Thread-safe: Streams calls {@link #onChange} on its own threads.
 */
public final class StreamsStateTracker implements KafkaStreams.StateListener {
    private final String name;
    private final KafkaStreams.StateListener also;
    private final CountDownLatch settled = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile State settledState;
    private volatile String failure;

    /**
     * @param name what runs, for the failure message (e.g. {@code "report aggregator"}); not null
     * @param also told of every transition after this tracker, or null
     */
    public StreamsStateTracker(String name, KafkaStreams.StateListener also) {
        this.name = Objects.requireNonNull(name, "name");
        this.also = also;
    }

    /**
     * Records a transition.
     *
     * @param now    the new state; not null
     * @param before the previous state; not null
     */
    @Override
    public void onChange(State now, State before) {
        if (now == State.ERROR || now == State.PENDING_ERROR) {
            failure = "the " + name + " stopped (Kafka Streams state " + now + ", see the log above)";
        }
        if (settledState == null && (now == State.RUNNING || now == State.PENDING_ERROR || now == State.ERROR
                || now == State.PENDING_SHUTDOWN || now == State.NOT_RUNNING)) {
            settledState = now;
            settled.countDown();
        }
        if (now == State.ERROR || now == State.NOT_RUNNING) {
            stopped.countDown();
        }
        if (also != null) {
            also.onChange(now, before);
        }
    }

    /**
     * Waits until start-up has settled.
     *
     * @param timeout how long to wait; not null
     * @return the state that settled it ({@code RUNNING} when the client started, else the stop or
     *         failure state it went to first), or null when the timeout passed first
     * @throws InterruptedException when interrupted while waiting
     */
    public State awaitSettled(Duration timeout) throws InterruptedException {
        return settled.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? settledState : null;
    }

    /**
     * Waits until the client has stopped (error, shut down) or {@link #markClosed()} was called.
     *
     * @param timeout how long to wait; not null
     * @return true when it stopped within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Records that the owner closed the client: {@link #awaitStopped} returns true from now on. */
    public void markClosed() {
        stopped.countDown();
    }

    /**
     * @return why the client stopped by itself ({@code "the <name> stopped (Kafka Streams state ERROR,
     *         see the log above)"}), or null while it has not failed
     */
    public String failure() {
        return failure;
    }
}

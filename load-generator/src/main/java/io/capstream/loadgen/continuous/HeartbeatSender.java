package io.capstream.loadgen.continuous;

import io.capstream.schemas.avro.Heartbeat;

/**
 * Sends {@link Heartbeat} events to every partition of {@code capstream.events}, so that the
 * aggregator's stream time advances on every partition and windows close when traffic stops.
 * Implementations must be thread-safe and must not throw for delivery problems (count them).
 */
public interface HeartbeatSender extends AutoCloseable {
    /**
     * Sends one heartbeat to every partition.
     *
     * @param heartbeat target and model of this worker (either may be null); not null
     * @return number of records handed to the producer (one per partition; 0 when the partitions
     *         could not be listed, e.g. Kafka down)
     */
    int beat(Heartbeat heartbeat);

    /** Releases resources; never throws. */
    @Override
    void close();
}

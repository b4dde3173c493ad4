package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Partitioner of the re-keyed events topic (key {@code target|model|bucket}): requests go to the
 * default partition of their key; heartbeats and the input partitions' progress records
 * ({@link RekeyProcessor#PROGRESS_KEY}) go to every partition (multicast, KIP-837), so that stream time
 * advances in every window task and windows close when traffic stops even though the heartbeat's own key
 * would hash to only one partition.
 *
 * @param <V> the value type: {@link WindowInput}, or {@link RunEvent} as versions before the compact repartition
 *            values wrote it
 */
public final class HeartbeatBroadcastPartitioner<V> implements StreamPartitioner<String, V> {
    /**
     * @param value the record's value: a {@link WindowInput} (a heartbeat is a {@link WindowInput.Beat}) or, as
     *              versions before the compact repartition values wrote it, a {@link RunEvent}; null for progress
     */
    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
        if (value instanceof WindowInput.Beat || (value instanceof RunEvent e && e.getPayload() instanceof Heartbeat)
                || RekeyProcessor.PROGRESS_KEY.equals(key) || RekeyProcessor.HEARTBEAT_KEY.equals(key)) {
            return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toUnmodifiableSet()));
        }
        return Optional.empty();
    }
}

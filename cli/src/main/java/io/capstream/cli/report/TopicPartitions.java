package io.capstream.cli.report;

import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** The partitions of a topic for a consumer that assigns them itself (the report and sweep waiters). */
public final class TopicPartitions {
    private static final Duration PAUSE = Duration.ofMillis(100);

    private TopicPartitions() {
    }

    /**
     * The partitions of {@code topic}, waiting while the cluster does not know them yet (a topic created
     * a moment ago has no partition metadata at first), polling every 100 ms.
     *
     * @param consumer any consumer of the cluster; not null
     * @param topic    the topic; not null
     * @param timeout  how long to wait for partition metadata
     * @return the partitions, never empty
     * @throws IllegalStateException when the topic has no partitions after {@code timeout}
     */
    public static List<TopicPartition> await(Consumer<?, ?> consumer, String topic, Duration timeout) {
        return await(consumer, topic, timeout, CapClock.system());
    }

    /**
     * As {@link #await(Consumer, String, Duration)}, waiting on {@code clock}.
     *
     * @param consumer any consumer of the cluster; not null
     * @param topic    the topic; not null
     * @param timeout  how long to wait for partition metadata, on the clock
     * @param clock    the clock of the deadline and of the 100 ms pauses; not null
     * @return the partitions, never empty
     * @throws IllegalStateException when the topic has no partitions after {@code timeout}, or the thread was
     *                               interrupted while it waited (its interrupt flag is set again)
     */
    public static List<TopicPartition> await(Consumer<?, ?> consumer, String topic, Duration timeout, CapClock clock) {
        long deadline = clock.nanoTime() + timeout.toNanos();
        while (true) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            }
            if (clock.nanoTime() - deadline > 0) {
                throw new IllegalStateException("topic " + topic + " has no partitions on the cluster after "
                        + timeout.toSeconds() + " s (does it exist?)");
            }
            try {
                clock.sleep(PAUSE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the partitions of topic " + topic, e);
            }
        }
    }
}

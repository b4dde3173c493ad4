package io.capstream.cli.report;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** The partitions of a topic for a consumer that assigns them itself (the report and sweep waiters). */
public final class TopicPartitions {
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
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("topic " + topic + " has no partitions on the cluster after "
                        + timeout.toSeconds() + " s (does it exist?)");
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }
}

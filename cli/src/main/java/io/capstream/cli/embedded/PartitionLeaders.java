package io.capstream.cli.embedded;

import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Waits until every partition of topics created a moment ago has a leader. A producer that sends to a partition
 * whose leader is not elected yet has its first batch refused ({@code NOT_LEADER_OR_FOLLOWER}); with the idempotent
 * producer and several requests in flight, a later batch of the same partition can then be accepted first, and the
 * retried first batch is refused with an out-of-order sequence again and again until the delivery timeout (Kafka's
 * KAFKA-14359): a run's first events were lost that way in a test that produced right after creating its topics.
 * Polls {@code describeTopics} every 100 ms on the given clock. Stateless.
 */
public final class PartitionLeaders {
    private static final Duration PAUSE = Duration.ofMillis(100);

    private PartitionLeaders() {
    }

    /**
     * @param admin   the cluster's Admin client; not null
     * @param topics  the topics; not null (empty returns at once)
     * @param timeout how long to wait, on the clock
     * @param clock   the clock of the deadline and the 100 ms pauses; not null
     * @throws IllegalStateException when a partition still has no leader after {@code timeout} (naming the topics
     *                               without one), the cluster did not answer, or the thread was interrupted (its
     *                               interrupt flag is set again)
     */
    public static void await(Admin admin, Collection<String> topics, Duration timeout, CapClock clock) {
        if (topics.isEmpty()) {
            return;
        }
        long deadline = clock.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                Collection<String> leaderless = leaderless(admin, topics, timeout);
                if (leaderless.isEmpty()) {
                    return;
                }
                if (clock.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("topics " + leaderless + " have partitions without a leader after "
                            + timeout.toSeconds() + " s");
                }
                clock.sleep(PAUSE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the partition leaders of " + topics, e);
        }
    }

    /** @return the topics (sorted) with a partition that has no leader, or that the cluster does not know yet */
    private static Collection<String> leaderless(Admin admin, Collection<String> topics, Duration timeout)
            throws InterruptedException {
        Collection<String> out = new TreeSet<>();
        Map<String, org.apache.kafka.common.KafkaFuture<TopicDescription>> described =
                admin.describeTopics(topics).topicNameValues();
        for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<TopicDescription>> e : described.entrySet()) {
            try {
                TopicDescription d = e.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (d.partitions().isEmpty() || d.partitions().stream().map(TopicPartitionInfo::leader)
                        .anyMatch(leader -> leader == null || leader.isEmpty())) {
                    out.add(e.getKey());
                }
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe topic " + e.getKey() + ": " + ex.getCause(), ex);
                }
                out.add(e.getKey());
            } catch (TimeoutException ex) {
                throw new IllegalStateException("cannot describe topic " + e.getKey() + ": no answer within "
                        + timeout.toSeconds() + " s", ex);
            }
        }
        return out;
    }
}

package io.capstream.cli.distributed;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.options.KafkaClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Deletes plan topics that their coordinator left behind (killed with SIGKILL, or the machine died): a
 * coordinator sends a {@link ControlMessage#PLAN} message to {@link ControlTopic} just before it creates its
 * plan topic, so the broker's timestamp of that message dates the plan. A plan topic whose plan message is
 * older than {@link #MAX_AGE} (or gone) has no further use: its shares were all taken by then or can no longer
 * be (a worker refuses a share whose start passed {@link ShareRunner#STALE_MS} ago), and a coordinator still
 * waiting for that run's report does not read it any more. Every coordinator runs this when it starts. Stateless.
 */
public final class PlanCleanup {
    /** Age of its plan message after which a plan topic is deleted: the assignment wait, lead and stale bound, with room. */
    public static final Duration MAX_AGE = Duration.ofMinutes(2);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final long ADMIN_TIMEOUT_S = 30;

    private PlanCleanup() {
    }

    /**
     * @param topics      topic names of the cluster; not null
     * @param recentPlans run ids whose plan message is younger than {@link #MAX_AGE}; not null
     * @return the plan topics to delete: every plan topic whose run id is not in {@code recentPlans}, sorted
     */
    static List<String> stale(Set<String> topics, Set<String> recentPlans) {
        List<String> out = new ArrayList<>();
        for (String t : topics) {
            if (t.startsWith(PlanTopic.PREFIX) && !recentPlans.contains(t.substring(PlanTopic.PREFIX.length()))) {
                out.add(t);
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Deletes the stale plan topics, best effort.
     *
     * @param admin       an admin client of the run's Kafka; not null
     * @param kafka       client settings of the same Kafka; not null
     * @param nowBrokerMs now on the broker's clock, epoch ms
     * @param clock       the clock of the control topic's read deadline; not null
     * @return the plan topics deleted (empty when there were none or Kafka refused)
     * @throws InterruptedException when interrupted
     */
    public static List<String> deleteStale(Admin admin, KafkaClientProperties kafka, long nowBrokerMs, CapClock clock)
            throws InterruptedException {
        try {
            Set<String> names = admin.listTopics().names().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
            if (names.stream().noneMatch(n -> n.startsWith(PlanTopic.PREFIX))) {
                return List.of();
            }
            List<String> stale = stale(names, recentPlans(kafka, nowBrokerMs - MAX_AGE.toMillis(), clock));
            if (stale.isEmpty()) {
                return List.of();
            }
            admin.deleteTopics(stale).all().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
            return stale;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return List.of();
        }
    }

    /** @return the run ids of the plan messages at or after {@code sinceBrokerMs} */
    private static Set<String> recentPlans(KafkaClientProperties kafka, long sinceBrokerMs, CapClock clock) {
        Set<String> out = new HashSet<>();
        TopicPartition tp = new TopicPartition(ControlTopic.NAME, 0);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(kafka.consumer(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false)),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.assign(List.of(tp));
            long end = c.endOffsets(List.of(tp), READ_TIMEOUT).get(tp);
            OffsetAndTimestamp from = c.offsetsForTimes(Map.of(tp, sinceBrokerMs), READ_TIMEOUT).get(tp);
            if (from == null) {
                return out; // no message that recent
            }
            c.seek(tp, from.offset());
            long deadline = clock.nanoTime() + READ_TIMEOUT.toNanos();
            while (c.position(tp) < end && clock.nanoTime() - deadline < 0) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    ControlMessage m = ControlMessage.parse(r.value());
                    if (m != null && ControlMessage.PLAN.equals(m.type())) {
                        out.add(m.runId());
                    }
                }
            }
            if (c.position(tp) < end) {
                // not read in time: keep every plan (deleting one that is in use would be worse than keeping one)
                throw new IllegalStateException("control topic not read in time");
            }
        }
        return out;
    }
}

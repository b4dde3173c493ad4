package io.capstream.cli.distributed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * What the coordinator can see of its workers: which shares of a run's plan have been taken, read from
 * Kafka's own group state. A worker commits a share's offset before it runs it ({@link WorkerService}), so
 * a committed offset &gt;= 1 on partition {@code k} of the plan topic means share {@code k} was taken; the
 * group's member descriptions say which worker holds each partition now. Stateless; one call per look.
 */
public final class ShareWatch {
    private ShareWatch() {
    }

    /**
     * The shares of one run as the group sees them.
     *
     * @param shares     number of shares (partitions of the plan topic)
     * @param taken      share index to the client id of the member holding its partition now ("" when no
     *                   member holds it), for every share whose offset was committed
     * @param assignedTo share index to the client id of the member its partition is assigned to, for every
     *                   assigned share (taken or not)
     * @param members    members in group {@value WorkerService#GROUP}
     * @param holders    distinct members the plan topic's partitions are assigned to
     */
    public record Status(int shares, Map<Integer, String> taken, Map<Integer, String> assignedTo, int members,
                         int holders) {
        /**
         * @return true when every share's partition is assigned and no member holds two: each worker will
         *         take one share (the state in which the coordinator writes the shares)
         */
        public boolean oneSharePerWorker() {
            return assignedTo.size() == shares && holders == shares;
        }

        /** @return the share indices not taken yet, ascending */
        public List<Integer> notTaken() {
            List<Integer> out = new ArrayList<>();
            for (int k = 0; k < shares; k++) {
                if (!taken.containsKey(k)) {
                    out.add(k);
                }
            }
            return out;
        }

        /** @return true when every share was taken */
        public boolean allTaken() {
            return taken.size() == shares;
        }

        /**
         * @return one line, e.g. {@code "shares taken: 0 (capstream-worker-a), 1 (capstream-worker-b); not taken: 2
         *         (assigned to capstream-worker-b); 2 workers in group capstream-workers"}
         */
        public String describe() {
            StringBuilder b = new StringBuilder();
            if (!taken.isEmpty()) {
                b.append("shares taken: ");
                List<String> parts = new ArrayList<>();
                taken.forEach((k, who) -> parts.add(k + (who.isEmpty() ? "" : " (" + who + ")")));
                b.append(String.join(", ", parts)).append("; ");
            }
            List<Integer> missing = notTaken();
            if (!missing.isEmpty()) {
                b.append("not taken: ");
                List<String> parts = new ArrayList<>();
                for (int k : missing) {
                    String who = assignedTo.get(k);
                    parts.add(k + (who == null ? " (assigned to no worker)" : " (assigned to " + who + ")"));
                }
                b.append(String.join(", ", parts)).append("; ");
            }
            return b.append(members).append(members == 1 ? " worker" : " workers").append(" in group ")
                    .append(WorkerService.GROUP).toString();
        }
    }

    /**
     * @param admin   an admin client of the run's cluster; not null
     * @param runId   the run id (its plan topic is {@link PlanTopic#name})
     * @param shares  number of shares, &gt;= 1
     * @param timeout how long Kafka may take for each of the two answers; positive
     * @return the status; a group that does not exist has no members and no share taken
     * @throws ExecutionException   when Kafka refuses (e.g. no DESCRIBE permission on the group)
     * @throws TimeoutException     when Kafka does not answer in time
     * @throws InterruptedException when interrupted
     */
    public static Status status(Admin admin, String runId, int shares, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        String topic = PlanTopic.name(runId);
        Map<Integer, String> assigned = new TreeMap<>();
        java.util.Set<String> holders = new java.util.HashSet<>();
        int members = 0;
        try {
            ConsumerGroupDescription g = admin.describeConsumerGroups(List.of(WorkerService.GROUP),
                            new DescribeConsumerGroupsOptions().timeoutMs(ms))
                    .describedGroups().get(WorkerService.GROUP).get(ms, TimeUnit.MILLISECONDS);
            members = g.members().size();
            for (MemberDescription m : g.members()) {
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    if (tp.topic().equals(topic)) {
                        assigned.put(tp.partition(), m.clientId());
                        holders.add(m.consumerId());
                    }
                }
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets = admin.listConsumerGroupOffsets(WorkerService.GROUP,
                            new ListConsumerGroupOffsetsOptions().timeoutMs(ms))
                    .partitionsToOffsetAndMetadata().get(ms, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
            offsets = Map.of();
        }
        Map<Integer, String> taken = new TreeMap<>();
        offsets.forEach((tp, o) -> {
            if (tp.topic().equals(topic) && o != null && o.offset() >= 1 && tp.partition() < shares) {
                taken.put(tp.partition(), assigned.getOrDefault(tp.partition(), ""));
            }
        });
        return new Status(shares, taken, assigned, members, holders.size());
    }
}

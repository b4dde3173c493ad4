package io.capstream.cli.stack;

import io.capstream.cli.options.KafkaClientProperties;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeStreamsGroupsOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * Counts the active members of a Kafka Streams application's group, e.g. of a running
 * {@code capstream aggregate} service, with {@link Admin#describeConsumerGroups} (and, for an
 * application on the {@code streams} group protocol, {@link Admin#describeStreamsGroups}).
 */
public final class AggregatorPresence {
    private AggregatorPresence() {
    }

    /**
     * @param kafka   client settings of the cluster; not null
     * @param groupId the application id (consumer group); not null
     * @param timeout how long Kafka may take to answer; positive
     * @return the number of members; 0 when the group is empty or does not exist
     * @throws ExecutionException   when Kafka refuses (e.g. no DESCRIBE permission on the group)
     * @throws java.util.concurrent.TimeoutException when Kafka does not answer within the timeout
     * @throws InterruptedException when interrupted
     */
    public static int activeMembers(KafkaClientProperties kafka, String groupId, Duration timeout) throws Exception {
        int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        Admin admin = Admin.create(kafka.admin());
        try {
            try {
                return admin.describeConsumerGroups(List.of(groupId), new DescribeConsumerGroupsOptions().timeoutMs(ms))
                        .describedGroups().get(groupId).get(ms, TimeUnit.MILLISECONDS).members().size();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    throw e;
                }
            }
            // no consumer group of that name: it may be a Streams group (group.protocol=streams)
            try {
                return admin.describeStreamsGroups(List.of(groupId), new DescribeStreamsGroupsOptions().timeoutMs(ms))
                        .describedGroups().get(groupId).get(ms, TimeUnit.MILLISECONDS).members().size();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupIdNotFoundException
                        || e.getCause() instanceof UnsupportedVersionException) {
                    return 0;
                }
                throw e;
            }
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }
}

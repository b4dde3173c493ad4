package io.capstream.aggregator.events;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;

/**
 * Asks the cluster how many partitions a topic has (the window step waits for the progress of every partition
 * of the events topic before it closes a window).
 */
public final class EventPartitions {
    private EventPartitions() {
    }

    /**
     * @param clientProps the Streams client properties (bootstrap servers, security settings); not null; only the
     *                    admin client's settings are used
     * @param topic       the topic; not null
     * @param timeout     how long to wait for the answer
     * @return its partition count, or 0 when it cannot be told in time (no such topic yet, cluster unreachable)
     * @throws InterruptedException when interrupted while waiting
     */
    public static int count(Properties clientProps, String topic, Duration timeout) throws InterruptedException {
        Properties admin = new Properties();
        for (String name : AdminClientConfig.configNames()) {
            if (clientProps.containsKey(name)) {
                admin.put(name, clientProps.get(name));
            }
        }
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        try (Admin client = Admin.create(admin)) {
            return count(client, topic, timeout);
        }
    }

    /**
     * Like {@link #count(Properties, String, Duration)}, over an Admin client the caller owns (and closes).
     *
     * @param client  the client; not null
     * @param topic   the topic; not null
     * @param timeout how long to wait for the answer
     * @return its partition count, or 0 when it cannot be told in time
     * @throws InterruptedException when interrupted while waiting
     */
    public static int count(Admin client, String topic, Duration timeout) throws InterruptedException {
        try {
            TopicDescription d = client.describeTopics(List.of(topic),
                            new DescribeTopicsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())))
                    .allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            return d == null ? 0 : d.partitions().size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }
}

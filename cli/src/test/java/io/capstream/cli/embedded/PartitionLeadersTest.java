package io.capstream.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.time.ManualCapClock;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionLeaders}: it returns once every partition of the topics has a leader, waiting 100 ms on the given
 * clock between looks (a manual clock: no real waiting), and gives up with the leaderless topics named.
 */
class PartitionLeadersTest {
    private static final Node BROKER = new Node(1, "127.0.0.1", 9092);

    /** What a describe answers for one topic at the n-th look (0-based): a description or a failure. */
    private interface Cluster {
        KafkaFuture<TopicDescription> describe(String topic, int look);
    }

    private static KafkaFuture<TopicDescription> partitions(String topic, Node... leaders) {
        List<TopicPartitionInfo> parts = new ArrayList<>();
        for (int i = 0; i < leaders.length; i++) {
            parts.add(new TopicPartitionInfo(i, leaders[i], List.of(BROKER), List.of(BROKER)));
        }
        return KafkaFuture.completedFuture(new TopicDescription(topic, false, parts));
    }

    private static Admin admin(Cluster cluster, List<Collection<String>> looks) {
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("describeTopics") || args.length != 1) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    Collection<String> topics = List.copyOf((Collection<String>) args[0]);
                    int look = looks.size();
                    looks.add(topics);
                    Map<String, KafkaFuture<TopicDescription>> futures = new HashMap<>();
                    topics.forEach(t -> futures.put(t, cluster.describe(t, look)));
                    return new DescribeTopicsResult(null, futures) { };
                });
    }

    @Test
    void waitsOnTheClockUntilEveryPartitionHasALeader() {
        List<Collection<String>> looks = new ArrayList<>();
        IntFunction<Node> second = look -> look < 2 ? null : BROKER;
        Admin admin = admin((topic, look) -> topic.equals("b") && look == 0
                ? failed(new UnknownTopicOrPartitionException("not yet"))
                : partitions(topic, BROKER, topic.equals("a") ? second.apply(look) : BROKER), looks);
        ManualCapClock clock = new ManualCapClock();
        long before = clock.nanoTime();

        PartitionLeaders.await(admin, List.of("a", "b"), Duration.ofSeconds(30), clock);

        assertThat(looks).as("describeTopics calls: a's partition 1 has no leader twice, b is unknown at first")
                .hasSize(3).allSatisfy(l -> assertThat(l).containsExactlyInAnyOrder("a", "b"));
        assertThat(Duration.ofNanos(clock.nanoTime() - before)).as("waited on the clock, two pauses")
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void givesUpAfterTheTimeoutNamingTheTopicsWithoutALeader() {
        List<Collection<String>> looks = new ArrayList<>();
        Admin admin = admin((topic, look) -> topic.equals("a") ? partitions(topic, BROKER, Node.noNode())
                : partitions(topic, BROKER), looks);
        ManualCapClock clock = new ManualCapClock();

        assertThatThrownBy(() -> PartitionLeaders.await(admin, List.of("a", "b"), Duration.ofSeconds(2), clock))
                .as("a partition of a never gets a leader")
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("topics [a] have partitions without a leader after 2 s");
        assertThat(looks).as("one look per 100 ms of the 2 s, and the last").hasSizeBetween(20, 22);
    }

    @Test
    void noTopicsAskNothing() {
        List<Collection<String>> looks = new ArrayList<>();
        PartitionLeaders.await(admin((t, l) -> partitions(t, BROKER), looks), List.of(), Duration.ofSeconds(1),
                new ManualCapClock());
        assertThat(looks).as("describeTopics calls").isEmpty();
    }

    private static KafkaFuture<TopicDescription> failed(Exception e) {
        KafkaFutureImpl<TopicDescription> f = new KafkaFutureImpl<>();
        f.completeExceptionally(e);
        return f;
    }
}

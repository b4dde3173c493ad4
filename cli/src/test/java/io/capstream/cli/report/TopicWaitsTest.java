package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.time.ManualCapClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The topic readers' deadlines on a manual clock: a consumer whose every poll takes its whole timeout. */
class TopicWaitsTest {
    /** @return a consumer whose polls return nothing and move the clock by the poll's timeout */
    static MockConsumer<String, byte[]> idle(ManualCapClock clock) {
        return new MockConsumer<>("earliest") {
            @Override
            public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
                clock.advance(timeout);
                return ConsumerRecords.empty();
            }
        };
    }

    static void onePartition(MockConsumer<String, byte[]> c, String topic, long endOffset) {
        c.updatePartitions(topic, List.of(new PartitionInfo(topic, 0, Node.noNode(), new Node[0], new Node[0])));
        TopicPartition tp = new TopicPartition(topic, 0);
        c.updateBeginningOffsets(Map.of(tp, 0L));
        c.updateEndOffsets(Map.of(tp, endOffset));
    }

    @Test
    void aTopicWithoutPartitionsIsAnErrorAfterTheTimeoutOnTheClock() {
        ManualCapClock clock = new ManualCapClock();
        MockConsumer<String, byte[]> c = idle(clock);
        assertThatThrownBy(() -> TopicPartitions.await(c, "capstream.reports", Duration.ofSeconds(30), clock))
                .as("no partitions after 30 s").isInstanceOf(IllegalStateException.class)
                .hasMessage("topic capstream.reports has no partitions on the cluster after 30 s (does it exist?)");
        // looks at 0, 0.1, ..., 30.0 s are within the 30 s; the one at 30.1 s is past it
        assertThat(clock.sleeps()).as("pauses between looks").hasSize(301).containsOnly(Duration.ofMillis(100));
    }

    @Test
    void partitionsThatAppearLateAreFound() {
        ManualCapClock clock = new ManualCapClock();
        MockConsumer<String, byte[]> c = idle(clock);
        clock.onSleep(d -> {
            if (clock.sleeps().size() == 3) {
                onePartition(c, "t", 0);
            }
        });
        assertThat(TopicPartitions.await(c, "t", Duration.ofSeconds(30), clock)).as("partitions")
                .containsExactly(new TopicPartition("t", 0));
        assertThat(clock.sleeps()).as("pauses before the topic had partitions").hasSize(3);
    }

    @Test
    void aHistoryThatStopsMakingProgressFailsAfter30sOnTheClock() {
        ManualCapClock clock = new ManualCapClock();
        MockConsumer<String, byte[]> c = idle(clock);
        onePartition(c, "t", 5); // five records that never come
        long start = clock.nanoTime();
        assertThatThrownBy(() -> TopicHistory.read(c, "t", (k, v) -> { }, clock)).as("no progress")
                .isInstanceOf(IllegalStateException.class).hasMessage("reading t made no progress for 30s");
        assertThat(clock.nanoTime() - start).as("time on the clock when it gave up, ns (61 polls of 500 ms)")
                .isEqualTo(30_500_000_000L);
    }
}

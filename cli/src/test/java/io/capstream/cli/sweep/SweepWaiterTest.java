package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.time.ManualCapClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SweepWaiterTest {
    @Test
    void noCurveWithinTheTimeoutIsEmptyAfterTheTimeoutOnTheClock() {
        ManualCapClock clock = new ManualCapClock();
        MockConsumer<String, byte[]> c = new MockConsumer<>("earliest") {
            @Override
            public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
                clock.advance(timeout);
                return ConsumerRecords.empty();
            }
        };
        c.updatePartitions("capstream.sweeps", List.of(new PartitionInfo("capstream.sweeps", 0, Node.noNode(),
                new Node[0], new Node[0])));
        c.updateEndOffsets(Map.of(new TopicPartition("capstream.sweeps", 0), 0L));
        try (SweepWaiter w = new SweepWaiter(c, "capstream.sweeps", (topic, data) -> (SweepCurve) null, clock)) {
            long start = clock.nanoTime();
            assertThat(w.await("sweep-1", Set.of("run-1"), Duration.ofSeconds(10))).as("a curve that never came")
                    .isEmpty();
            assertThat(clock.nanoTime() - start).as("time on the clock when it gave up, ns (50 polls of 200 ms)")
                    .isEqualTo(10_000_000_000L);
        }
    }
}

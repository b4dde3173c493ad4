package io.capstream.aggregator.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.aggregator.runtime.StreamsSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** Back-off doubling and the bound on how long a stream thread may hold a record. */
class RegistryRetryTest {
    @Test
    void backOffDoublesFrom100MsTo5s() {
        RegistryRetry r = RegistryRetry.defaults();
        Duration d = r.initialBackoff();
        StringBuilder seen = new StringBuilder(Long.toString(d.toMillis()));
        for (int i = 0; i < 8; i++) {
            d = r.next(d);
            seen.append(',').append(d.toMillis());
        }
        assertEquals("100,200,400,800,1600,3200,5000,5000,5000", seen.toString());
    }

    @Test
    void theHoldIsBoundedByThePollIntervalAndTheTransactionTimeout() {
        RegistryRetry r = RegistryRetry.defaults();
        assertEquals(Duration.ofSeconds(60), r.holdBound(Map.of("processing.guarantee", "at_least_once")),
                "at least once: 60 s (half the 5 min poll interval would allow 150 s)");
        assertEquals(Duration.ofSeconds(5), r.holdBound(Map.of("processing.guarantee", "exactly_once_v2")),
                "exactly once with Kafka Streams' 10 s transaction timeout: half of it");
        assertEquals(Duration.ofSeconds(20), r.holdBound(Map.of("processing.guarantee", "at_least_once",
                "main.consumer.max.poll.interval.ms", 40_000)));
        assertEquals(Duration.ofSeconds(15), r.holdBound(Map.of("processing.guarantee", "exactly_once_v2",
                "transaction.timeout.ms", "30000")));

        Map<String, Object> aggregator = new HashMap<>();
        StreamsSettings.defaults("app", "b:1", null).toProperties().forEach((k, v) -> aggregator.put((String) k, v));
        assertEquals("exactly_once_v2", aggregator.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
        assertEquals(Duration.ofSeconds(60), r.holdBound(aggregator),
                "the aggregator's 120 s transaction timeout allows the whole 60 s hold");
        assertThrows(IllegalArgumentException.class,
                () -> r.holdBound(Map.of("max.poll.interval.ms", "five minutes")));
    }

    @Test
    void validates() {
        assertThrows(IllegalArgumentException.class,
                () -> new RegistryRetry(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(60)));
        assertThrows(IllegalArgumentException.class,
                () -> new RegistryRetry(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(60)));
        assertThrows(NullPointerException.class, () -> new RegistryRetry(Duration.ofMillis(1), Duration.ofSeconds(1), null));
    }
}

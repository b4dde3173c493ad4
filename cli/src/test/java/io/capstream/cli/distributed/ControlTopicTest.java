package io.capstream.cli.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.time.ManualCapClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

class ControlTopicTest {
    private static final Config LOG_APPEND = new Config(List.of(new ConfigEntry("message.timestamp.type", "LogAppendTime")));

    /** Before: three workers starting together failed "cannot describe capstream.control" (exit 1). */
    @Test
    void aTopicJustCreatedElsewhereIsDescribedOnceTheBrokerKnowsIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Config c = ControlTopic.describe(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new ExecutionException(new UnknownTopicOrPartitionException("not yet"));
            }
            return LOG_APPEND;
        }, Duration.ofSeconds(10), new ManualCapClock());
        assertSame(LOG_APPEND, c);
        assertEquals(3, calls.get());
    }

    @Test
    void anotherErrorOrTheDeadlineStopsTheRetries() {
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException denied = assertThrows(IllegalStateException.class, () -> ControlTopic.describe(() -> {
            calls.incrementAndGet();
            throw new ExecutionException(new AuthorizationException("denied"));
        }, Duration.ofSeconds(10), new ManualCapClock()));
        assertEquals(1, calls.get());
        assertThat(denied.getMessage()).startsWith("cannot describe capstream.control:");
        assertThrows(IllegalStateException.class, () -> ControlTopic.describe(() -> {
            throw new ExecutionException(new UnknownTopicOrPartitionException("never"));
        }, Duration.ofNanos(-1), new ManualCapClock()));
    }

    @Test
    void anUnknownTopicIsRetriedEvery100MsUntilTheDeadlineOnTheClock() {
        ManualCapClock clock = new ManualCapClock();
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> ControlTopic.describe(() -> {
            calls.incrementAndGet();
            throw new ExecutionException(new UnknownTopicOrPartitionException("never"));
        }, Duration.ofSeconds(30), clock)).as("an unknown topic at the deadline")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot describe capstream.control");
        // tries at 0, 0.1, ..., 30.0 s are within the 30 s; the one at 30.1 s is past it
        assertThat(calls.get()).as("describe calls").isEqualTo(302);
        assertThat(clock.sleeps()).as("pauses between tries").hasSize(301).containsOnly(Duration.ofMillis(100));
    }
}

package io.capstream.cli.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        }, System.nanoTime() + 10_000_000_000L);
        assertSame(LOG_APPEND, c);
        assertEquals(3, calls.get());
    }

    @Test
    void anotherErrorOrTheDeadlineStopsTheRetries() {
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException denied = assertThrows(IllegalStateException.class, () -> ControlTopic.describe(() -> {
            calls.incrementAndGet();
            throw new ExecutionException(new AuthorizationException("denied"));
        }, System.nanoTime() + 10_000_000_000L));
        assertEquals(1, calls.get());
        assertThat(denied.getMessage()).startsWith("cannot describe capstream.control:");
        assertThrows(IllegalStateException.class, () -> ControlTopic.describe(() -> {
            throw new ExecutionException(new UnknownTopicOrPartitionException("never"));
        }, System.nanoTime() - 1));
    }
}

package io.capstream.aggregator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StreamsRuntime} without a broker: its state directory, its close and its start-up
 * timeout. Running and failing topologies are in the cli's {@code StreamsRuntimeIT} (embedded broker).
 */
class StreamsRuntimeTest {
    /** Nothing listens there: the client never gets past REBALANCING. */
    private static final String NO_BROKER = "127.0.0.1:9";

    @TempDir
    Path tmp;

    private static Topology topology() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("streams-runtime-test-in").to("streams-runtime-test-out");
        return b.build();
    }

    @Test
    void aTemporaryStateDirectoryIsCreatedAndDeletedOnClose() throws Exception {
        StreamsRuntime rt = StreamsRuntime.create(topology(), StreamsSettings.defaults("rt-temp", NO_BROKER, null),
                StreamsRuntime.Options.named("test topology").withTempStateDir().withCleanUpOnClose(true));
        Path dir = rt.tempStateDir();
        assertTrue(Files.isDirectory(dir), String.valueOf(dir));
        assertThat(dir.getFileName().toString()).as(dir.toString()).startsWith(StreamsRuntime.TEMP_STATE_DIR_PREFIX);
        assertEquals(KafkaStreams.State.CREATED, rt.state());
        assertFalse(rt.awaitStopped(Duration.ZERO));

        rt.close();
        assertFalse(Files.exists(dir), "deleted: " + dir);
        assertEquals(KafkaStreams.State.NOT_RUNNING, rt.state());
        assertTrue(rt.awaitStopped(Duration.ZERO));
        assertNull(rt.failure());
        rt.close(); // idempotent
        assertEquals(KafkaStreams.State.NOT_RUNNING, rt.state());
    }

    @Test
    void aGivenStateDirectoryIsKept() throws Exception {
        Path state = Files.createDirectories(tmp.resolve("state"));
        Path marker = Files.writeString(state.resolve("marker"), "kept");
        try (StreamsRuntime rt = StreamsRuntime.create(topology(), StreamsSettings.defaults("rt-kept", NO_BROKER, state),
                StreamsRuntime.Options.named("test topology").withTempStateDir())) {
            assertNull(rt.tempStateDir(), "a directory was given");
        }
        assertEquals("kept", Files.readString(marker), "nothing of the given directory is deleted");
    }

    @Test
    void theGlobalStoresOfAGivenStateDirectoryAreRebuiltTheTasksStoresKept() throws Exception {
        Path app = Files.createDirectories(tmp.resolve("state").resolve("rt-global"));
        Path global = Files.writeString(Files.createDirectories(app.resolve(StreamsRuntime.GLOBAL_DIR)).resolve("rocksdb"),
                "left by kill -9");
        Path task = Files.writeString(Files.createDirectories(app.resolve("0_0")).resolve("rocksdb"), "kept");
        try (StreamsRuntime rt = StreamsRuntime.create(topology(),
                StreamsSettings.defaults("rt-global", NO_BROKER, tmp.resolve("state")),
                StreamsRuntime.Options.named("test topology"))) {
            assertThat(global.getParent()).as("global stores' directory after create").doesNotExist();
            assertThat(Files.readString(task)).as("a task's store").isEqualTo("kept");
        }
    }

    @Test
    void withoutABrokerTheStartUpTimesOutWithTheCurrentState() throws Exception {
        try (StreamsRuntime rt = StreamsRuntime.create(topology(),
                StreamsSettings.defaults("rt-timeout", NO_BROKER, null).withStreamThreads(1),
                StreamsRuntime.Options.named("test topology").withTempStateDir()
                        .withCloseTimeout(Duration.ofSeconds(10)))) {
            rt.start();
            StreamsStartException e = assertThrows(StreamsStartException.class,
                    () -> rt.awaitRunning(Duration.ofMillis(300)));
            assertTrue(e.timedOut());
            assertEquals(KafkaStreams.State.REBALANCING, e.state());
            assertEquals("the test topology did not start within 300 ms (Kafka Streams state REBALANCING)",
                    e.getMessage());
            assertNull(rt.failure());
        }
    }

    @Test
    void aStopWhileStartingIsNotATimeout() {
        StreamsStartException e = new StreamsStartException("report aggregator", KafkaStreams.State.ERROR, false,
                Duration.ofSeconds(60));
        assertFalse(e.timedOut());
        assertEquals(KafkaStreams.State.ERROR, e.state());
        assertEquals("the report aggregator stopped while starting (Kafka Streams state ERROR, see the log above)",
                e.getMessage());
    }

    @Test
    void theCloseTimeoutMustBePositive() {
        assertThrows(IllegalArgumentException.class,
                () -> StreamsRuntime.Options.named("x").withCloseTimeout(Duration.ZERO));
        assertEquals(StreamsRuntime.Options.DEFAULT_CLOSE_TIMEOUT, StreamsRuntime.Options.named("x").closeTimeout());
    }
}

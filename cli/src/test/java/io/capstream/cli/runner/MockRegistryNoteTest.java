package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A run on a shared Kafka without {@code --schema-registry-url} wrote its report with the in-process registry, said so
 * only when no report was awaited, and every later {@code tail reports} failed on it (fresh-user finding).
 */
class MockRegistryNoteTest {
    @Test
    void aRunOnAGivenKafkaWithTheInProcessRegistryIsToldOthersCannotDecodeItsEventsAndReport() {
        assertThat(MockRegistryNote.of("127.0.0.1:9092", RunDriver.MOCK_REGISTRY, true)).as("report awaited (default)")
                .isEqualTo("the events and report written to 127.0.0.1:9092 are encoded with the in-process registry"
                        + " mock://capstream, which other processes (aggregate, tail) cannot decode: give"
                        + " --schema-registry-url (the one `capstream up` prints)");
        assertThat(MockRegistryNote.of("127.0.0.1:9092", "mock://x", false)).as("--no-aggregator: events only")
                .startsWith("the events written to 127.0.0.1:9092 are encoded with the in-process registry mock://x,");
    }

    @Test
    void noNoteWithTheEmbeddedBrokerOrARealRegistry() {
        assertThat(MockRegistryNote.of(null, RunDriver.MOCK_REGISTRY, true)).as("embedded broker").isNull();
        assertThat(MockRegistryNote.of("127.0.0.1:9092", "http://127.0.0.1:8081", true)).as("a registry").isNull();
    }
}

package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bounded shutdown hook of {@code generate --continuous} (and {@code aggregate}); the bound is injected. */
class BoundedStopTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void aStopPastItsBoundSaysWhatWasNotFlushed() {
        AtomicInteger stops = new AtomicInteger();
        new BoundedStop("capstream generate --continuous", stops::incrementAndGet, new CountDownLatch(1),
                Duration.ofSeconds(15), (done, bound) -> false, err, () -> "21 events not delivered").run();
        assertThat(stops.get()).as("stop asked").isEqualTo(1);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).as("stderr").isEqualTo("capstream generate --continuous:"
                + " did not finish stopping within 15 s; exiting without it: 21 events not delivered"
                + System.lineSeparator());
    }

    @Test
    void aStopWithinItsBoundPrintsNothing() {
        new BoundedStop("x", () -> { }, new CountDownLatch(0), Duration.ofMillis(1500), BoundedStop.LATCH, err,
                () -> "never asked").run();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).as("stderr").isEmpty();
    }
}

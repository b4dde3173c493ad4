package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.runner.BoundedStop;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SIGTERM to an {@code aggregate} whose broker has gone: the shutdown hook waits for the close at most
 * {@link AggregateCommand#STOP_BOUND} and then says what was not committed, instead of holding the process (it had to
 * be killed with SIGKILL). The bound is injected: the waiter answers "bound passed" at once, nothing sleeps.
 */
class AggregateShutdownBoundTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    @Timeout(20) // the close below never ends: a hook that waited for it would run into this
    void aCloseHeldByAGoneBrokerIsCutAtTheBoundWithOneLineSayingWhatWasNotCommitted() throws Exception {
        CountDownLatch brokerBack = new CountDownLatch(1);
        CountDownLatch closeStarted = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Duration> waited = new AtomicReference<>();
        BoundedStop.Waiter boundPasses = (done, bound) -> {
            waited.set(bound);
            closeStarted.await(10, TimeUnit.SECONDS);
            return done.getCount() == 0;
        };
        Runnable close = () -> {
            closeStarted.countDown();
            try {
                brokerBack.await(); // Kafka Streams waiting for its commit
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try {
            AggregateCommand.closeOnSignal(close, () -> "Kafka Streams did not finish closing", closed, err, boundPasses)
                    .run();
        } finally {
            brokerBack.countDown();
        }
        assertThat(waited.get()).as("the hook's bound").isEqualTo(AggregateCommand.STOP_BOUND);
        assertThat(AggregateCommand.STOP_BOUND).as("below the 15 s after which users reach for SIGKILL")
                .isLessThan(Duration.ofSeconds(15));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).as("stderr")
                .isEqualTo("capstream aggregate: did not finish stopping within 12 s; exiting without it:"
                        + " Kafka Streams did not finish closing" + System.lineSeparator());
    }

    @Test
    @Timeout(20)
    void aCloseThatFinishesPrintsNothing() {
        CountDownLatch closed = new CountDownLatch(1);
        AggregateCommand.closeOnSignal(() -> { }, () -> null, closed, err, BoundedStop.LATCH).run();
        assertThat(closed.getCount()).as("closed").isZero();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).as("stderr").isEmpty();
    }

    @Test
    @Timeout(20)
    void aCloseThatFinishedButNotCleanlySaysWhatWasNotCommitted() {
        CountDownLatch closed = new CountDownLatch(1);
        AggregateCommand.closeOnSignal(() -> { }, () -> "Kafka Streams did not close within 8 s", closed, err,
                BoundedStop.LATCH).run();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).as("stderr").isEqualTo("capstream aggregate: stopped"
                + " without a clean close: Kafka Streams did not close within 8 s" + System.lineSeparator());
    }
}

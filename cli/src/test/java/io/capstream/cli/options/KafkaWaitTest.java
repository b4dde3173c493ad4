package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code aggregate}'s wait for Kafka at start (it gave up after one 10 s check once, at load 27): checks of at most
 * 10 s until {@code --kafka-wait} has passed, a progress line after each unanswered one, the one-line error at the end.
 * The clock is a counter each check moves by its timeout: nothing sleeps.
 */
class KafkaWaitTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final List<Duration> checks = new ArrayList<>();
    private static final KafkaReachability.Outcome NO_ANSWER = new KafkaReachability.Outcome(
            "cannot reach Kafka at k:9092: no broker answered within 10 s", true);

    private KafkaWait waitWith(KafkaReachability.Outcome... outcomes) {
        return new KafkaWait(t -> {
            checks.add(t);
            now.addAndGet(t.toNanos()); // the check took its whole timeout
            return outcomes[Math.min(checks.size() - 1, outcomes.length - 1)];
        }, now::get, err, "capstream aggregate");
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBrokerThatAnswersOnlyAfterTwentySecondsIsWaitedForWithProgressLines() {
        String error = waitWith(NO_ANSWER, NO_ANSWER, new KafkaReachability.Outcome(null, false))
                .await("k:9092", Duration.ofSeconds(60), "--kafka-wait");
        assertThat(error).as("outcome").isNull();
        assertThat(checks).as("the checks' timeouts").containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofSeconds(10));
        assertThat(printed()).as("progress").isEqualTo(
                "capstream aggregate: waiting for Kafka at k:9092: no answer yet after 10 s of 60 s (--kafka-wait)\n"
                        .replace("\n", System.lineSeparator())
                + "capstream aggregate: waiting for Kafka at k:9092: no answer yet after 20 s of 60 s (--kafka-wait)"
                + System.lineSeparator());
    }

    @Test
    void whenTheWaitRunsOutOneLineSaysHowLongItWaited() {
        String error = waitWith(NO_ANSWER).await("k:9092", Duration.ofSeconds(25), "--kafka-wait");
        assertThat(error).as("outcome").isEqualTo("cannot reach Kafka at k:9092: no broker answered within 25 s"
                + " (is it running, and is the address right?)");
        assertThat(checks).as("the last check gets only the time left")
                .containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(5));
        assertThat(printed().lines()).as("progress lines").hasSize(2);
    }

    /**
     * On a busy machine the last check can overrun the wait (a CI run saw {@code within 3 s} for {@code --kafka-wait
     * 2s}): the line names the wait the user gave, which was waited in full.
     */
    @Test
    void aCheckThatOverrunsTheWaitStillNamesTheWaitGiven() {
        String error = new KafkaWait(t -> {
            now.addAndGet(t.toNanos() + 1_300_000_000L); // each check takes 1.3 s longer than its timeout
            return NO_ANSWER;
        }, now::get, err, "capstream aggregate").await("k:9092", Duration.ofSeconds(2), "--kafka-wait");
        assertThat(error).as("outcome").isEqualTo("cannot reach Kafka at k:9092: no broker answered within 2 s"
                + " (is it running, and is the address right?)");
    }

    @Test
    void anErrorThatWaitingDoesNotCureEndsTheWaitAtOnce() {
        KafkaReachability.Outcome bad = new KafkaReachability.Outcome(
                "cannot reach Kafka at nohost:9092: No resolvable bootstrap urls given in bootstrap.servers", false);
        String error = waitWith(bad).await("nohost:9092", Duration.ofSeconds(60), "--kafka-wait");
        assertThat(error).as("outcome").isEqualTo(bad.error());
        assertThat(checks).as("checks").hasSize(1);
        assertThat(printed()).as("progress").isEmpty();
    }
}

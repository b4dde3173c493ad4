package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** aggregate's one Admin client at start: the same one-line errors as a check with a client of its own. */
class StartupAdminTest {

    @Test
    @Timeout(30)
    void aClosedPortIsNoAnswerWithinTheTimeout() {
        try (StartupAdmin admin = new StartupAdmin(new KafkaClientProperties("127.0.0.1:1", Map.of()))) {
            KafkaReachability.Outcome o = admin.probe(Duration.ofSeconds(1));
            assertThat(o.error()).as("error of a check against a closed port")
                    .startsWith("cannot reach Kafka at 127.0.0.1:1: no broker answered within 1 s");
            assertThat(o.timedOut()).as("waiting longer may help").isTrue();
            KafkaReachability.Outcome again = admin.probe(Duration.ofSeconds(1));
            assertThat(again).as("a second check over the same client").isEqualTo(o);
        }
    }

    @Test
    @Timeout(30)
    void anUnresolvableAddressIsTheProbesErrorNotAnException() {
        try (StartupAdmin admin = new StartupAdmin(new KafkaClientProperties("nohost.invalid:9092", Map.of()))) {
            KafkaReachability.Outcome o = admin.probe(Duration.ofSeconds(1));
            assertThat(o.error()).as("error of a check against an unresolvable address")
                    .startsWith("cannot reach Kafka at nohost.invalid:9092: ")
                    .contains("No resolvable bootstrap urls");
            assertThat(o.timedOut()).as("waiting does not cure it").isFalse();
        }
    }

    @Test
    void theTopicsNeedAProbeFirst() {
        try (StartupAdmin admin = new StartupAdmin(new KafkaClientProperties("127.0.0.1:1", Map.of()))) {
            assertThatThrownBy(() -> admin.ensureTopics(4)).as("topic setup before any check")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("probe first");
        }
    }
}

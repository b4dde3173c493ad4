package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.registry.RegistryClientConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one order of the reachability checks (fresh-user pass 4): Kafka, then the registry, the first failure's line
 * only. Kafka's answer is faked (a real check of a closed port is KafkaUnreachableTest's); the registry is a closed
 * port (connection refused at once).
 */
class ConnectionChecksTest {
    private String registry;
    private final AtomicInteger kafkaAsked = new AtomicInteger();

    @BeforeEach
    void closedRegistry() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            registry = "http://user:RegPw-31@127.0.0.1:" + s.getLocalPort();
        }
    }

    @Test
    void kafkaDownIsNamedAndTheRegistryIsNotAsked() {
        String line = ConnectionChecks.kafkaThenRegistry(() -> {
            kafkaAsked.incrementAndGet();
            return "cannot reach Kafka at 127.0.0.1:1: no broker answered within 10 s";
        }, registry, RegistryClientConfig.defaults());
        assertThat(line).as("the line with both down").isEqualTo("cannot reach Kafka at 127.0.0.1:1: no broker"
                + " answered within 10 s");
        assertThat(kafkaAsked).as("Kafka checks").hasValue(1);
    }

    @Test
    void withKafkaUpTheRegistryIsNamedMasked() {
        String line = ConnectionChecks.kafkaThenRegistry(() -> null, registry, RegistryClientConfig.defaults());
        assertThat(line).as("the line with the registry down")
                .startsWith("cannot reach the schema registry at http://").contains("connection refused")
                .doesNotContain("RegPw-31");
    }

    @Test
    void anEmbeddedBrokerAndAMockRegistryAreNotChecked() {
        assertThat(ConnectionChecks.kafkaThenRegistry(new KafkaClientProperties(null, java.util.Map.of()),
                "mock://x", RegistryClientConfig.defaults())).as("embedded broker, mock registry").isNull();
    }
}

package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code tail}'s reachability checks: Kafka first (one line naming the bootstrap servers), then the schema registry.
 * Kafka's answer is faked (a real check of a closed port waits {@code KafkaReachability.TIMEOUT}; KafkaUnreachableTest
 * has that case); the registry is a closed port.
 */
class TailReachabilityTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    private final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    private final List<String> asked = new ArrayList<>();
    private String registry;

    @BeforeEach
    void closedRegistry() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            registry = "http://user:RegistryPw1@127.0.0.1:" + s.getLocalPort() + "/apis/ccompat/v7";
        }
    }

    private int tail(String kafkaAnswer) {
        TailCommand cmd = new TailCommand(out, errStream);
        cmd.kafkaCheck = props -> {
            asked.add(props.bootstrapServers());
            return kafkaAnswer;
        };
        return new CommandLine(cmd).execute("reports", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", registry);
    }

    /**
     * Fresh-user pass 3: with Kafka and the registry both down, tail named only the registry (its check came first);
     * it names Kafka now, in one line, and does not get to the registry.
     */
    @Test
    void kafkaDownIsNamedBeforeTheRegistry() {
        int code = tail("cannot reach Kafka at 127.0.0.1:1: no broker answered within 10 s");
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code, stderr %s", text).isEqualTo(1);
        assertThat(text).as("stderr").isEqualTo("capstream tail: cannot reach Kafka at 127.0.0.1:1: no broker answered"
                + " within 10 s" + System.lineSeparator());
        assertThat(asked).as("bootstrap servers checked").containsExactly("127.0.0.1:1");
    }

    @Test
    void withKafkaUpAnUnreachableRegistryIsNamedWithoutItsCredentials() {
        int code = tail(null);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code, stderr %s", text).isEqualTo(1);
        assertThat(text).as("stderr").contains("capstream tail: cannot reach the schema registry at http://")
                .contains("connection refused").doesNotContain("RegistryPw1");
        assertThat(asked).as("Kafka checked first").containsExactly("127.0.0.1:1");
    }
}

package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code run} with a schema registry URL on a closed port: one clear line naming the registry, exit 1, quickly, no
 * broker started and no request sent to the target (issue 11, item 3: a run against a stopped registry would measure
 * the endpoint and then be unable to encode a single event). {@code generate}, {@code generate --continuous} and
 * {@code worker} with Kafka down too: Kafka is named first (ConnectionChecks; the registry-after-Kafka case is
 * ConnectionChecksTest's and TailReachabilityTest's).
 */
class RegistryUnreachableTest {
    private CountingTarget target;
    private String registry;

    @BeforeEach
    void start() throws Exception {
        target = new CountingTarget();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            registry = "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    @AfterEach
    void stop() {
        target.close();
    }

    @Test
    @Timeout(30)
    void runFailsBeforeSendingAnything() {
        CliRun r = run("run", "--schema-registry-url", registry, "--base-url", target.baseUrl(), "--model", "m",
                "--max-model-len", "4096", "--requests", "2");
        assertOneLine(r, "capstream run");
    }

    /**
     * Fresh-user pass 4: with Kafka and the registry both down, generate named the registry (its check came first),
     * tail named Kafka; every command now checks Kafka first (ConnectionChecks), so this names Kafka in one line and
     * never gets to the registry (failed before: the line named the registry).
     */
    @Test
    @Timeout(30)
    void generateWithBothDownNamesKafkaFirst() {
        CliRun r = run("generate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", registry,
                "--base-url", target.baseUrl(), "--model", "m", "--max-model-len", "4096", "--requests", "2");
        assertKafkaNamed(r, "capstream generate");
    }

    /** As {@link #generateWithBothDownNamesKafkaFirst()}, after its --kafka-wait (failed before likewise). */
    @Test
    @Timeout(30)
    void continuousGenerateWithBothDownNamesKafkaFirst() {
        CliRun r = run("generate", "--continuous", "--kafka-wait", "2s", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", registry, "--base-url", target.baseUrl(), "--model", "m", "--max-model-len",
                "4096", "--requests", "2");
        assertKafkaNamed(r, "capstream generate --continuous");
    }

    /** As {@link #generateWithBothDownNamesKafkaFirst()}: worker checked the registry first too (failed before). */
    @Test
    @Timeout(30)
    void workerWithBothDownNamesKafkaFirst() {
        CliRun r = run("worker", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", registry);
        assertThat(r.code()).as("exit code, stderr %s", r.err()).isEqualTo(1);
        assertThat(r.lines().stream().filter(l -> l.startsWith("capstream worker:")).toList()).as("worker's lines")
                .singleElement().asString().startsWith("capstream worker: cannot reach Kafka at 127.0.0.1:1: ");
    }

    private void assertKafkaNamed(CliRun r, String cmd) {
        assertThat(r.code()).as("exit code, stderr %s", r.err()).isEqualTo(1);
        List<String> lines = r.err().lines().filter(l -> l.startsWith(cmd + ":")).toList();
        assertThat(lines).as("the command's lines").singleElement().asString()
                .startsWith(cmd + ": cannot reach Kafka at 127.0.0.1:1: ").endsWith("; nothing was sent")
                .doesNotContain("schema registry");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    private void assertOneLine(CliRun r, String cmd) {
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.err().lines().filter(l -> l.startsWith("capstream ")).toList();
        assertEquals(List.of(cmd + ": cannot reach the schema registry at " + registry
                + ": connection refused (is it running, and is the URL right?); nothing was sent"), lines, r.err());
        assertEquals(0, target.hits(), "no request may reach the target");
    }


}

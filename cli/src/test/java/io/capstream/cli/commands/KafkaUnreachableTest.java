package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code generate}, {@code run} and {@code tail} against a closed port: one clear line naming the
 * address, exit 1, within the reachability timeout, and no request sent to the target.
 */
class KafkaUnreachableTest {
    private static final String CLOSED = "127.0.0.1:1";
    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    private String baseUrl() {
        return target.baseUrl();
    }

    @Test
    @Timeout(30)
    void generateFailsFastWithTheAddressAndSendsNothing() {
        CliRun r = run("generate", "--bootstrap-servers", CLOSED, "--schema-registry-url", "mock://x",
                "--base-url", baseUrl(), "--model", "m", "--max-model-len", "4096", "--requests", "2");
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream generate: cannot reach Kafka at " + CLOSED + ":");
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("capstream generate:")).count(), r.err());
        assertEquals(0, target.hits(), "no request may reach the target");
    }

    @Test
    @Timeout(30)
    void continuousGenerateWaitsForKafkaAsLongAsItsKafkaWait() {
        // a monitoring service started with (or before) its broker: it gave up after one 10 s check (compose, a
        // loaded machine) where aggregate waits; before, --kafka-wait was an unknown option (exit 2)
        CliRun r = run("generate", "--continuous", "--kafka-wait", "2s", "--bootstrap-servers", CLOSED,
                "--schema-registry-url", "mock://x", "--base-url", baseUrl(), "--model", "m", "--max-model-len",
                "4096", "--requests", "2");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(1);
        assertThat(r.err()).as("stderr").contains("capstream generate --continuous: cannot reach Kafka at " + CLOSED
                + ": no broker answered within 2 s").contains("nothing was sent");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(30)
    void aKafkaWaitOfZeroIsAUsageError() {
        CliRun r = run("generate", "--continuous", "--kafka-wait", "0s", "--bootstrap-servers", CLOSED,
                "--schema-registry-url", "mock://x", "--base-url", baseUrl(), "--model", "m");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.err().strip()).as("stderr").isEqualTo("capstream generate: --kafka-wait must be > 0");
    }

    @Test
    @Timeout(30)
    void runFailsFastWithTheAddressAndSendsNothing() {
        CliRun r = run("run", "--bootstrap-servers", CLOSED, "--base-url", baseUrl(), "--model", "m",
                "--max-model-len", "4096", "--requests", "2");
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream run: cannot reach Kafka at " + CLOSED + ":");
        assertEquals(0, target.hits(), "no request may reach the target");
    }

    @Test
    @Timeout(30)
    void tailNamesTheAddress() {
        // a real registry URL (tail refuses mock://); Kafka is checked first, so the registry is never asked
        CliRun r = run("tail", "reports", "--bootstrap-servers", CLOSED, "--schema-registry-url",
                "http://127.0.0.1:1/apis/ccompat/v7");
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream tail: cannot reach Kafka at " + CLOSED + ":");
    }



    @Test
    @Timeout(30)
    void aggregateNamesTheAddressInOneLineOnceItsWaitIsOver() {
        CliRun r = run("aggregate", "--bootstrap-servers", CLOSED, "--schema-registry-url", "mock://x",
                "--kafka-wait", "2s", "--http-port", "0");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(1);
        assertThat(r.lines().stream().filter(l -> l.startsWith("capstream aggregate: cannot reach")).toList())
                .as("the command's error lines on stderr")
                .singleElement().asString()
                .startsWith("capstream aggregate: cannot reach Kafka at " + CLOSED + ": no broker answered within 2 s");
    }

    @Test
    @Timeout(30)
    void replayFailsFastWithTheAddressInOneLine() {
        // before: nothing for ~60 s (its --timeout ignored), then a bare "java.util.concurrent.TimeoutException"
        CliRun r = run("replay", "--run-id", "x", "--timeout", "5", "--bootstrap-servers", CLOSED,
                "--schema-registry-url", "mock://x");
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream replay: cannot reach Kafka at " + CLOSED + ":");
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("capstream replay:")).count(), r.err());
    }

    @Test
    @Timeout(30)
    void importWithAKafkaFailsFastWithTheAddressInOneLine() {
        // before: the admin client retried for ~60 s, then "cannot list topics on ...: java.util.concurrent.TimeoutException"
        CliRun r = run("import", "--bootstrap-servers", CLOSED, "--schema-registry-url", "mock://x",
                io.capstream.cli.report.SharedDir.seed().toString());
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream import: cannot reach Kafka at " + CLOSED + ":");
    }

    @Test
    void replayListsEveryUsageProblemAtOnce() {
        // before: only the missing --bootstrap-servers; the bad --timeout came up only once Kafka was given
        CliRun r = run("replay", "--run-id", "x", "--timeout", "0");
        assertEquals(2, r.code(), r.err());
        assertThat(r.err()).contains("capstream replay: needs --bootstrap-servers");
        assertThat(r.err()).contains("capstream replay: needs --schema-registry-url");
        assertThat(r.err()).contains("capstream replay: --timeout must be 1..86400 seconds, got 0");
    }
}

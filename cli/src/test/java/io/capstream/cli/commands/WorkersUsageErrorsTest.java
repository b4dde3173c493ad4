package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code --workers} and {@code capstream worker} usage errors: one line, exit 2, nothing started. */
class WorkersUsageErrorsTest {

    private static void assertUsageError(CliRun r, String line) {
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of(line), r.lines());
    }

    @Test
    @Timeout(20)
    void workersNeedAnExternalKafkaAndRegistry() {
        assertUsageError(run("run", "--workers", "3"),
                "capstream run: --workers needs --bootstrap-servers: the workers cannot reach this process's embedded broker");
        assertUsageError(run("run", "--workers", "3", "--bootstrap-servers", "127.0.0.1:1"),
                "capstream run: --workers needs --schema-registry-url (a registry every worker reaches)");
        assertUsageError(run("run", "--workers", "0", "--bootstrap-servers", "127.0.0.1:1"),
                "capstream run: --workers must be 1..1000, got 0");
        assertUsageError(run("generate", "--workers", "2", "--continuous", "--bootstrap-servers", "127.0.0.1:1",
                        "--schema-registry-url", "mock://x"),
                "capstream generate: --workers cannot be combined with --continuous");
    }

    @Test
    @Timeout(20)
    void workerNeedsKafkaAndRegistry() {
        assertUsageError(run("worker"), "capstream worker: --bootstrap-servers and --schema-registry-url are required");
        assertUsageError(run("worker", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--worker-id", " "), "capstream worker: --worker-id must not be blank");
    }
}

package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
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

    /**
     * The usage errors that the run's configuration shows come first, before the registry or Kafka is contacted:
     * nothing listens on 127.0.0.1:1, so a check that came after the Kafka connection would exit 1 (cannot reach
     * Kafka) instead.
     */
    @Test
    @Timeout(20)
    void workersUsageErrorsComeBeforeAnyKafkaConnection() {
        List<String> kafka = List.of("--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
        assertUsageError(run(args(kafka, "run", "--workers", "3", "--concurrency", "2")),
                "capstream run: --workers 3 needs --concurrency of at least 3 (each worker gets a part of it), got 2");
        assertUsageError(run(args(kafka, "run", "--workers", "2", "--concurrency", "2", "--run-id", "a+b")),
                "capstream run: --workers: run id 'a+b' cannot name the plan topic (letters, digits, '.', '_' and '-'"
                        + " only)");
        assertUsageError(run(args(kafka, "run", "--workers", "2", "--concurrency", "2", "-H", "X-Api-Key: k")),
                "capstream run: --workers: -H headers are not sent to workers (the plan holds no header values, they"
                        + " may be secrets); run them in one process");
        assertUsageError(run(args(kafka, "generate", "--workers", "2", "--concurrency", "2", "--base-url",
                        "http://u:p@127.0.0.1:9/v1", "--model", "m")),
                "capstream generate: --workers: credentials in --base-url (user:password@) are not sent to workers; use"
                        + " --api-key-env with the variable set on every worker");
    }

    @Test
    @Timeout(20)
    void aTraceWithWorkersIsNamedAsTheTrace(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        // before the fix the line named "--dataset, --input-tokens and --output-tokens", none of which was given
        java.nio.file.Path trace = tmp.resolve("t.jsonl");
        java.nio.file.Files.writeString(trace, "{\"timestamp\": 0, \"input_length\": 100, \"output_length\": 5}\n");
        List<String> kafka = List.of("--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
        assertUsageError(run(args(kafka, "generate", "--workers", "2", "--trace", trace.toString())),
                "capstream generate: --workers: --trace is not sent to workers (the trace's lines are one schedule);"
                        + " run it in one process");
    }

    private static String[] args(List<String> tail, String... head) {
        List<String> all = new java.util.ArrayList<>(List.of(head));
        all.addAll(tail);
        return all.toArray(String[]::new);
    }

    @Test
    @Timeout(20)
    void workerNeedsKafkaAndRegistry() {
        assertUsageError(run("worker"), "capstream worker: --bootstrap-servers and --schema-registry-url are required");
        assertUsageError(run("worker", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--worker-id", " "), "capstream worker: --worker-id must not be blank");
        assertUsageError(run("worker", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--worker-id", "w1\u001b[31m"), "capstream worker: --worker-id must not contain control characters"
                + " (U+001B at position 3); it names the worker's events and lines");
        assertUsageError(run("worker", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--worker-id", "a\nb"), "capstream worker: --worker-id must not contain control characters"
                + " (U+000A at position 2); it names the worker's events and lines");
    }

    @Test
    void workerHelpGivesTheSignalsExitCodes() {
        String help = new picocli.CommandLine(new WorkerCommand()).getUsageMessage(picocli.CommandLine.Help.Ansi.OFF);
        assertThat(help).contains("130   stopped by Ctrl-C (SIGINT)");
        assertThat(help).contains("143   stopped by SIGTERM");
        assertThat(help).doesNotContain("0     stopped");
    }
}

package io.capstream.cli.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.cli.commands.AggregateCommand;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.commands.TailCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Usage errors of {@code aggregate} and {@code tail} (nothing is started). */
class MonitoringCommandsTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    private final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void aggregateRequiresBootstrapServersAndValidSlos() {
        int code = new CommandLine(new AggregateCommand(out, errStream)).execute("--slo", "ttft_p90_ms<=5");
        assertEquals(2, code);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("--bootstrap-servers is required");
        assertThat(text).contains("p50, p95 or p99");
    }

    @Test
    void aggregateRejectsZeroStreamThreads() {
        int code = new CommandLine(new AggregateCommand(out, errStream)).execute("--stream-threads", "0",
                "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
        assertEquals(2, code);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("--stream-threads must be >= 1, got 0");
    }

    @Test
    void aggregateRejectsBadWindow() {
        int code = new CommandLine(new AggregateCommand(out, errStream)).execute("--window", "soon");
        assertEquals(2, code);
    }

    @Test
    void aggregateWithItsHttpPortTakenIsAUsageErrorNamingTheOption() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            int code = new CommandLine(new AggregateCommand(out, errStream)).execute("--http-port", String.valueOf(port),
                    "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
            String text = err.toString(StandardCharsets.UTF_8);
            assertThat(code).as("exit code, stderr %s", text).isEqualTo(2);
            assertThat(text).as("stderr").contains("capstream aggregate: port " + port
                    + " on 127.0.0.1 is already in use, so the HTTP API cannot listen on it")
                    .contains("It is held by PID " + ProcessHandle.current().pid())
                    .contains("choose another port with --http-port PORT");
        }
    }

    @Test
    void tailRejectsUnknownTopicAndFormat() {
        int code = new CommandLine(new TailCommand(out, errStream)).execute("events", "--format", "xml",
                "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
        assertEquals(2, code);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("expected reports, summaries, alerts, changes, sweeps or server-metrics");
        assertThat(text).contains("expected table, json or jsonl");
    }

    @Test
    void durations() {
        assertEquals(Duration.ofSeconds(5), DurationConverter.parse("5s"));
        assertEquals(Duration.ofMillis(500), DurationConverter.parse("500ms"));
        assertEquals(Duration.ofMinutes(1), DurationConverter.parse("1m"));
        assertEquals(Duration.ofHours(1), DurationConverter.parse("1h"));
        assertEquals(Duration.ofSeconds(30), DurationConverter.parse("30"));
        assertEquals(Duration.ofMinutes(2), DurationConverter.parse("PT2M"));
        assertThrows(CommandLine.TypeConversionException.class, () -> DurationConverter.parse("-5s"));
    }
}

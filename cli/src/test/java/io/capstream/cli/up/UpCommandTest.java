package io.capstream.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code capstream up} without starting anything: argument checks, busy ports, the printed lines. */
class UpCommandTest {
    private record Result(int code, String err) {
    }

    private static Result up(Map<String, String> env, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "up";
        System.arraycopy(args, 0, all, 1, args.length);
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(all, env));
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        return new Result(cmd.execute(all), err.toString());
    }

    @Test
    void busyKafkaPortIsAUsageErrorWithAClearMessage() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Result r = up(Map.of(), "--kafka-port", String.valueOf(busy.getLocalPort()),
                    "--registry-port", String.valueOf(Ports.freePort()));
            assertEquals(2, r.code());
            assertThat(r.err()).contains("port " + busy.getLocalPort() + " on 127.0.0.1 is already in use",
                    "--kafka-port");
        }
    }

    @Test
    void anOutOfRangePortIsOneLineWithOnePrefix() {
        // the message was "capstream up: capstream up: kafka port must be ..." (a fresh-user check)
        Result r = up(Map.of(), "--kafka-port", "70000");
        assertEquals(2, r.code());
        assertEquals("capstream up: kafka port must be 1..65535, got 70000", r.err().lines().findFirst().orElse(""));
    }

    @Test
    void aDataDirThatIsAFileIsAUsageError(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // was exit 1 with "failed: java.io.UncheckedIOException: cannot create the embedded broker's data directory"
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("afile"), "x");
        Result r = up(Map.of(), "--data-dir", file.toString());
        assertEquals(2, r.code());
        assertEquals("capstream up: --data-dir " + file + " is not a directory", r.err().lines().findFirst().orElse(""));
    }

    @Test
    void aDataDirThatCannotBeCreatedIsAUsageErrorNamingThePath(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // was exit 1 after startup began: "failed: java.io.UncheckedIOException: cannot create the embedded broker's
        // data directory", no path named
        Result proc = up(Map.of(), "--data-dir", "/proc/nonexistent/x");
        assertThat(proc.code()).as("exit code: " + proc.err()).isEqualTo(2);
        assertThat(proc.err().lines().findFirst().orElse("")).as("the first line")
                .isEqualTo("capstream up: --data-dir /proc/nonexistent/x cannot be created: no such file or directory"
                        + " (/proc/nonexistent)");
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("afile"), "x");
        Result under = up(Map.of(), "--data-dir", file.resolve("sub").toString());
        assertThat(under.code()).as("exit code: " + under.err()).isEqualTo(2);
        assertThat(under.err().lines().findFirst().orElse("")).as("a data dir under a file")
                .startsWith("capstream up: --data-dir " + file.resolve("sub") + " cannot be created: ");
    }

    @Test
    void busyRegistryPortFromTheEnvironmentIsAUsageError() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Result r = up(Map.of("CAPSTREAM_REGISTRY_PORT", String.valueOf(busy.getLocalPort()),
                    "CAPSTREAM_KAFKA_PORT", String.valueOf(Ports.freePort())));
            assertEquals(2, r.code());
            assertThat(r.err()).contains("--registry-port");
        }
    }

    @Test
    void equalPortsAndBadValuesAreUsageErrors() {
        Result same = up(Map.of(), "--kafka-port", "19099", "--registry-port", "19099");
        assertEquals(2, same.code());
        assertThat(same.err()).contains("must differ");
        Result bad = up(Map.of("CAPSTREAM_KAFKA_PORT", "ninety"));
        assertEquals(2, bad.code());
        assertThat(bad.err()).contains("CAPSTREAM_KAFKA_PORT");
        Result range = up(Map.of(), "--kafka-port", "70000");
        assertEquals(2, range.code());
        assertThat(range.err()).contains("1..65535");
    }

    @Test
    void configRejectsClashes() {
        assertThrows(IllegalArgumentException.class, () -> new UpConfig(9092, 8081, null, 0, Duration.ofSeconds(1), null));
        assertThrows(IllegalArgumentException.class, () -> new UpConfig(9092, 8081, null, 3, Duration.ZERO, null));
        UpConfig ok = new UpConfig(9092, 8081, null, 3, Duration.ofSeconds(90), null);
        assertEquals(9092, ok.kafkaPort());
    }

    @Test
    void bannerPrintsFlagsAndExports() {
        List<String> lines = UpBanner.lines("127.0.0.1:9092", "http://127.0.0.1:8081/apis/ccompat/v7", null);
        assertEquals(List.of(
                "capstream up: ready --bootstrap-servers 127.0.0.1:9092 --schema-registry-url http://127.0.0.1:8081/apis/ccompat/v7",
                "export CAPSTREAM_BOOTSTRAP_SERVERS=127.0.0.1:9092",
                "export CAPSTREAM_SCHEMA_REGISTRY_URL=http://127.0.0.1:8081/apis/ccompat/v7"), lines);
        assertEquals("--bootstrap-servers 127.0.0.1:9092 --schema-registry-url http://127.0.0.1:8081/apis/ccompat/v7",
                UpBanner.flagsOf(lines.get(0)));
        assertNull(UpBanner.flagsOf(lines.get(1)));
        List<String> withSim = UpBanner.lines("127.0.0.1:9092", "http://x:1/apis/ccompat/v7", "http://127.0.0.1:8000/v1");
        assertThat(withSim.get(0)).endsWith(" --base-url http://127.0.0.1:8000/v1");
        assertEquals("export CAPSTREAM_BASE_URL=http://127.0.0.1:8000/v1", withSim.get(3));
    }

    @Test
    void upOptionsHaveTheComposeDefaults() {
        CommandLine cmd = CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new java.util.Properties()));
        var spec = cmd.getSubcommands().get("up").getCommandSpec();
        assertEquals("9092", spec.findOption("--kafka-port").defaultValue());
        assertEquals("8081", spec.findOption("--registry-port").defaultValue());
    }
}

package io.capstream.cli.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstream check --json} against the npm mock {@code @copilotkit/aimock@1.43.0} (installed into
 * {@code .tools/aimock} by {@code .ci/run}, never by this test; skipped without it or without {@code node}): it
 * streams SSE and sends the usage chunk only when {@code include_usage} is set, and lists no window.
 */
class CheckAimockIT {
    @TempDir
    Path dir;

    private static Path repoRoot() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve(".ci"))) {
            p = p.getParent();
        }
        return p != null ? p : Paths.get("..").toAbsolutePath().normalize();
    }

    @Test
    void aimockStreamsAndSendsUsageOnlyWhenAsked() throws Exception {
        Path cli = repoRoot().resolve(".tools/aimock/node_modules/@copilotkit/aimock/dist/cli.js");
        Assumptions.assumeTrue(Files.exists(cli), "@copilotkit/aimock is not installed (" + cli + "): .ci/run installs it");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("aimock.out");
        Process p;
        try {
            p = new ProcessBuilder("node", cli.toString(), "-p", Integer.toString(port), "-h", "127.0.0.1", "-f",
                    Paths.get("src/test/resources/check/aimock-fixtures.json").toAbsolutePath().toString(),
                    "--log-level", "warn").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            Assumptions.abort("node is not installed: " + e.getMessage());
            return;
        }
        String base = "http://127.0.0.1:" + port + "/v1";
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException("aimock exited: " + Files.readString(log));
                }
                try {
                    HttpURLConnection c = (HttpURLConnection) URI.create(base + "/models").toURL().openConnection();
                    c.setConnectTimeout(500);
                    return c.getResponseCode() == 200;
                } catch (IOException e) {
                    return false;
                }
            });
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());
            int exit = new CommandLine(new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    System.err, env::get)).execute("--base-url", base, "--model", "aimock-stream", "--json");
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(exit).as("exit, output %s", text).isZero();
            JsonNode j = new ObjectMapper().readTree(text);
            assertThat(j.path("streaming").path("value").asText()).as("streaming").isEqualTo("sse");
            assertThat(j.path("usage_when_asked").path("value").asText()).as("usage when asked").isEqualTo("yes");
            assertThat(j.path("usage_unasked").path("value").asText()).as("usage unasked").isEqualTo("no");
            assertThat(j.path("context_window").path("value").asText()).as("window").isEqualTo("unknown");
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}

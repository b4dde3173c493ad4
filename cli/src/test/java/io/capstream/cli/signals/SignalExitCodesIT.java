package io.capstream.cli.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exit codes on SIGINT and SIGTERM (issue 11, item 9), as service managers and CI wrappers see
 * them: 130 and 143 (128 + the signal number), after the command's orderly stop, as the README says.
 * Each command runs in its own JVM, started by this test and stopped by its PID.
 */
class SignalExitCodesIT {
    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    private Process start(Path log, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream", "-cp", System.getProperty("java.class.path"),
                "io.capstream.cli.CapstreamMain"));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "";
        }
    }

    private static void signal(Process p, String sig) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue(), "kill -" + sig);
    }

    @Test
    @Timeout(90)
    void simExits130OnSigintAnd143OnSigterm() throws Exception {
        Path log1 = dir.resolve("sim-int.log");
        Process a = start(log1, "sim", "--port", "0");
        await().atMost(Duration.ofSeconds(60)).until(() -> read(log1).contains("Ctrl-C to stop") || !a.isAlive());
        signal(a, "INT");
        assertTrue(a.waitFor(30, TimeUnit.SECONDS), read(log1));
        assertEquals(130, a.exitValue(), read(log1));

        Path log2 = dir.resolve("sim-term.log");
        Process b = start(log2, "sim", "--port", "0");
        await().atMost(Duration.ofSeconds(60)).until(() -> read(log2).contains("Ctrl-C to stop") || !b.isAlive());
        signal(b, "TERM");
        assertTrue(b.waitFor(30, TimeUnit.SECONDS), read(log2));
        assertEquals(143, b.exitValue(), read(log2));
    }

    @Test
    @Timeout(150)
    void aRunStoppedBySigtermExits143AfterWritingItsInterruptedReport() throws Exception {
        Path log = dir.resolve("run.log");
        Path report = dir.resolve("stopped.json");
        // about 1 s per request at 4 slots: minutes of work, stopped a few requests in
        Process p = start(log, "run", "--requests", "2000", "--concurrency", "4", "--ctx-tokens", "256",
                "--max-tokens", "64", "--client-warmup", "0", "--output", report.toString());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> read(log).contains(" started: 2000 requests") || !p.isAlive());
        assertTrue(p.isAlive(), read(log));
        signal(p, "TERM");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), read(log));
        assertEquals(143, p.exitValue(), read(log));
        String out = read(log);
        assertThat(out).contains("capstream run: the run was interrupted before every planned request ran");
        assertThat(out).contains("report written to " + report);
        // said when the signal came, and the unsent requests are not called lost events (failed before)
        assertThat(out).as("run's output").contains("capstream run: stopping: no new request starts")
                .containsPattern("capstream run: \\d+ planned request\\(s\\) were not sent \\(the run was interrupted\\)")
                .doesNotContain("without an event");
        JsonNode c = ArtifactJson.read(report).path("capstream");
        assertTrue(c.path("interrupted").asBoolean(), c.toString());
    }
}

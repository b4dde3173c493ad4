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
    /** Whether {@code env --default-signal} is there (coreutils 8.31 and later). */
    private static final boolean DEFAULT_SIGINT = defaultSignalEnv();

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    /**
     * Starts the command in a JVM of its own. A JVM keeps a signal ignored that it was started with, and a build run as
     * a background job starts with SIGINT ignored (and this JVM's children with it): coreutils' {@code env
     * --default-signal=INT}, where there is one, gives the child SIGINT at its default, as a terminal does.
     */
    private Process start(Path log, String... args) throws Exception {
        List<String> argv = new ArrayList<>(DEFAULT_SIGINT ? List.of("env", "--default-signal=INT") : List.of());
        argv.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream", "-cp", System.getProperty("java.class.path"),
                "io.capstream.cli.CapstreamMain"));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    private static boolean defaultSignalEnv() {
        try {
            return new ProcessBuilder("env", "--default-signal=INT", "true").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
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

    /**
     * A fresh user's Ctrl-C during streams that would last long (1 token/s for 4,000 tokens) waited for them until the
     * stop's bound and wrote no report. The requests still in flight are now cancelled after the 10 s grace, and the
     * report of what ran is written (they count as cancelled), exit 130.
     */
    @Test
    @Timeout(180)
    void aCtrlCDuringLongStreamsCancelsThemAfterTheGraceAndWritesTheReport() throws Exception {
        Path log = dir.resolve("long.log");
        Path report = dir.resolve("long.json");
        Process p = startLongStreams(log, report);
        signal(p, "INT");
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("exited after one Ctrl-C: %s", read(log)).isTrue();
        assertThat(p.exitValue()).as("exit code: %s", read(log)).isEqualTo(130);
        assertThat(read(log)).as("run's output")
                .contains("capstream: 4 request(s) still in flight 10 s after the interruption were cancelled")
                .contains("report written to " + report);
        JsonNode c = ArtifactJson.read(report).path("capstream");
        assertThat(c.path("interrupted").asBoolean()).as("capstream.interrupted in %s", c).isTrue();
        assertThat(c.path("cancelled").path("requests").asInt()).as("capstream.cancelled.requests in %s", c)
                .isEqualTo(4);
    }

    /**
     * A second Ctrl-C while the orderly stop runs exits at once (a fresh user's second Ctrl-C did nothing: the JVM
     * ignores signals once its shutdown hooks run). The target holds its streams open (1 token/s for 4,000 tokens),
     * so the orderly stop would wait the 10 s grace for them; the second SIGINT, a little over {@link
     * ForcedExit#REPEAT} after the first (a closer repeat counts as the same Ctrl-C), ends the process with 130 well
     * before that, saying that the report is not written.
     */
    @Test
    @Timeout(150)
    void aSecondCtrlCDuringTheOrderlyStopExits130AtOnceSayingWhatIsLost() throws Exception {
        Path log = dir.resolve("forced.log");
        Path report = dir.resolve("forced.json");
        Process p = startLongStreams(log, report);
        signal(p, "INT");
        await().atMost(Duration.ofSeconds(20)).until(() -> read(log).contains("capstream run: stopping:"));
        assertThat(read(log)).as("the first Ctrl-C's notice")
                .contains("those in flight may end within 10 s, then are cancelled; then the report of what ran (at most"
                        + " 60 s in all); press Ctrl-C again to exit at once");
        // the second Ctrl-C must come later than a wrapper's copy of the first would
        await().pollDelay(ForcedExit.REPEAT.plusMillis(500)).atMost(Duration.ofSeconds(10)).until(p::isAlive);
        signal(p, "INT");
        // the orderly stop would still wait for the streams (10 s from the first Ctrl-C), then write the report
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("exited within 10 s of the second Ctrl-C: %s", read(log))
                .isTrue();
        assertThat(p.exitValue()).as("exit code: %s", read(log)).isEqualTo(130);
        assertThat(read(log)).as("run's output")
                .contains("capstream run: second Ctrl-C, exiting at once: the report of what ran is not written")
                .doesNotContain("report written to");
        assertThat(report).as("report file").doesNotExist();
    }

    /**
     * Starts a run whose 4 streams would last ~4,000 s (the built-in sim at 1 token/s), once SIGINT can reach it, and
     * waits until it has started (skipped where SIGINT stays ignored).
     *
     * @return the run's process, alive
     */
    private Process startLongStreams(Path log, Path report) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(DEFAULT_SIGINT || !sigintIgnoredHere(),
                "SIGINT is ignored in this JVM and env --default-signal is missing");
        Process p = start(log, "run", "--requests", "8", "--concurrency", "4", "--max-tokens", "4000",
                "--sim-stream-tok-s", "1", "--client-warmup", "0", "--output", report.toString());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> read(log).contains(" started: 8 requests") || !p.isAlive());
        assertThat(p.isAlive()).as("run alive before the first Ctrl-C: %s", read(log)).isTrue();
        return p;
    }

    /** @return whether this JVM was started with SIGINT ignored (its children start so too) */
    private static boolean sigintIgnoredHere() throws Exception {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        String mask = Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:")).findFirst()
                .map(l -> l.substring(7).strip()).orElse("0");
        return (Long.parseLong(mask, 16) & 0b10) != 0;
    }
}

package io.capstream.cli.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM flags the {@code ./capstream} script starts each command with: the script is copied next to an empty
 * {@code cli/target/capstream.jar} (so it builds nothing) and run with a {@code java} on the PATH that prints its
 * arguments instead of starting a JVM.
 */
class LauncherScriptTest {
    /** The script under test: the checkout's, or another one named by the system property {@code capstream.script}. */
    private static final Path SCRIPT = Path.of(System.getProperty("capstream.script", "../capstream"));

    @TempDir
    Path dir;
    /** Whether {@link #launch} starts the script with SIGINT and SIGQUIT at their default disposition. */
    private boolean defaultSignals;

    @Test
    void aggregateCompilesWithC1OnlyWithRoomForItsClassMetadata() throws Exception {
        String args = launch(true, "aggregate", "--help");
        assertThat(args).as("java arguments of ./capstream aggregate")
                .contains("-XX:+UseParallelGC", "-XX:MetaspaceSize=128m", "-XX:TieredStopAtLevel=1");
        String replay = launch(true, "replay", "--help");
        assertThat(replay).as("java arguments of ./capstream replay (C2 kept)")
                .contains("-XX:+UseParallelGC", "-XX:MetaspaceSize=128m").doesNotContain("TieredStopAtLevel");
    }

    @Test
    void aggregateWritesAndThenMapsAClassDataArchiveOfItsOwn() throws Exception {
        String first = launch(false, "aggregate", "--help");
        assertThat(first).as("java arguments of the first aggregate after a build")
                .contains("-XX:ArchiveClassesAtExit=" + dir.resolve("cli/target/capstream-aggregate.jsa"));
        Files.writeString(dir.resolve("cli/target/capstream-aggregate.jsa"), "archive");
        Files.setLastModifiedTime(dir.resolve("cli/target/capstream-aggregate.jsa"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 10_000));
        assertThat(launch(false, "aggregate", "--help")).as("java arguments of a later aggregate")
                .contains("-XX:SharedArchiveFile=" + dir.resolve("cli/target/capstream-aggregate.jsa"))
                .doesNotContain("ArchiveClassesAtExit");
        assertThat(launch(false, "replay", "--help")).as("other commands do not map aggregate's archive")
                .doesNotContain("capstream-aggregate.jsa");
    }

    /**
     * The first run after a build starts the JVM in the background (to move its class-data archive into place when it
     * ends): a script's background job had SIGINT ignored, which the JVM kept, so Ctrl-C did nothing (a fresh user's
     * first run could not be interrupted). Failed before the fix: {@code SigIgn=0000000000000006}.
     */
    @Test
    void theJvmThatWritesTheArchiveStartsWithCtrlCNotIgnored() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux /proc");
        // the script itself starts with both signals at their default even when this JVM was started with them
        // ignored (a build in a background job): coreutils' env --default-signal
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("env", "--default-signal=INT,QUIT", "true")
                .start().waitFor() == 0, "env --default-signal");
        defaultSignals = true;
        for (String command : List.of("run", "generate", "aggregate")) {
            Files.deleteIfExists(dir.resolve("cli/target/capstream.jsa"));
            String out = launch(false, command, "--help");
            assertThat(out).as("java arguments of the first %s after a build", command).contains("ArchiveClassesAtExit");
            assertThat(interruptBits(out)).as("SIGINT/SIGQUIT bits of the JVM's ignored signals (%s): %s", command, out)
                    .isZero();
        }
        String later = launch(true, "run", "--help");
        assertThat(interruptBits(later)).as("SIGINT/SIGQUIT bits of an exec'd JVM's ignored signals: %s", later).isZero();
    }

    /** @return the SIGINT and SIGQUIT bits of the {@code SigIgn=} mask the fake java printed */
    private static long interruptBits(String out) {
        String mask = out.lines().filter(l -> l.startsWith("SigIgn=")).findFirst().orElseThrow().substring(7);
        return Long.parseLong(mask, 16) & 0b110;
    }

    /**
     * Only what goes into the jar makes it stale: the main sources, resources and poms of the modules (editing a test
     * or a bench/ file rebuilt the jar, which disturbed a benchmark running from it).
     */
    @Test
    void onlyMainSourcesResourcesAndPomsOfTheModulesMakeTheJarStale() throws Exception {
        Files.writeString(dir.resolve("pom.xml"), "<project><modules><module>schemas</module>\n"
                + "    <module>cli</module></modules></project>\n");
        for (String f : List.of("cli/pom.xml", "cli/src/main/java/io/X.java", "cli/src/main/resources/x.properties",
                "schemas/pom.xml", "schemas/src/main/avro/R.avsc", "cli/src/test/java/io/XTest.java",
                "schemas/src/test/resources/released/v1/R.avsc", "bench/loadgen/LoadgenBench.java", "bench/x/pom.xml",
                "cli/target/classes/io/X.java")) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "x");
            Files.setLastModifiedTime(dir.resolve(f), java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(bin.resolve("mvn"), "#!/usr/bin/env bash\necho MVN-BUILD\n");
        Files.setPosixFilePermissions(bin.resolve("mvn"), PosixFilePermissions.fromString("rwxr-xr-x"));
        launch(true, "--version"); // makes the jar
        Files.setLastModifiedTime(dir.resolve("cli/target/capstream.jar"),
                java.nio.file.attribute.FileTime.fromMillis(2_000_000_000_000L));
        java.nio.file.attribute.FileTime later = java.nio.file.attribute.FileTime.fromMillis(2_000_000_100_000L);
        for (String f : List.of("cli/src/test/java/io/XTest.java", "schemas/src/test/resources/released/v1/R.avsc",
                "bench/loadgen/LoadgenBench.java", "bench/x/pom.xml", "cli/target/classes/io/X.java")) {
            Files.setLastModifiedTime(dir.resolve(f), later);
            assertThat(launch(true, "--version")).as("after editing %s", f).doesNotContain("MVN-BUILD");
            Files.setLastModifiedTime(dir.resolve(f), java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        }
        for (String f : List.of("pom.xml", "cli/pom.xml", "cli/src/main/java/io/X.java",
                "cli/src/main/resources/x.properties", "schemas/pom.xml", "schemas/src/main/avro/R.avsc")) {
            Files.setLastModifiedTime(dir.resolve(f), later);
            assertThat(launch(true, "--version")).as("after editing %s", f).contains("MVN-BUILD");
            Files.setLastModifiedTime(dir.resolve(f), java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        }
    }

    /** @return the arguments the script passed to java, one per line */
    private String launch(boolean noCds, String... command) throws IOException, InterruptedException {
        Path target = Files.createDirectories(dir.resolve("cli/target"));
        Path jar = target.resolve("capstream.jar");
        if (!Files.exists(jar)) {
            Files.writeString(jar, "");
        }
        Path script = dir.resolve("capstream");
        Files.copy(SCRIPT, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = bin.resolve("java");
        // the arguments, then the signals the JVM would start with ignored (read by the process that takes its place)
        Files.writeString(java, "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\n"
                + "exec sed -n 's/^SigIgn:[[:space:]]*/SigIgn=/p' /proc/self/status 2>/dev/null\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> cmd = new java.util.ArrayList<>(defaultSignals ? List.of("env", "--default-signal=INT,QUIT") : List.of());
        cmd.addAll(List.of("bash", script.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.command().addAll(List.of(command));
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("CAPSTREAM_JAVA_OPTS");
        if (noCds) {
            pb.environment().put("CAPSTREAM_CDS", "0");
        } else {
            pb.environment().remove("CAPSTREAM_CDS");
        }
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the script ended").isTrue();
        assertThat(p.exitValue()).as("exit code of the script; output: %s", out).isZero();
        return out;
    }
}

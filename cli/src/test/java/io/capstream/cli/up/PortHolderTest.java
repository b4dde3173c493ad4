package io.capstream.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Naming the process that holds a port {@code capstream up} needs (issue 27.5: an orphaned registry). */
class PortHolderTest {
    private static final String TCP_HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
            + "   uid  timeout inode\n";

    /** A /proc with one java process (PID 4242) listening on 127.0.0.1:8081 through socket inode 991. */
    private static Path fakeProc(Path root, String cmdline) throws Exception {
        Files.createDirectories(root.resolve("net"));
        Files.writeString(root.resolve("net/tcp"), TCP_HEADER
                + "   0: 0100007F:2384 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 990 1 0 100 0 0 10 0\n"
                + "   1: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 991 1 0 100 0 0 10 0\n"
                + "   2: 0100007F:1F91 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 992 1 0 100 0 0 10 0\n");
        Files.writeString(root.resolve("net/tcp6"), TCP_HEADER);
        Path other = Files.createDirectories(root.resolve("17/fd"));
        Files.createSymbolicLink(other.resolve("4"), Path.of("socket:[990]"));
        Files.writeString(root.resolve("17/cmdline"), "kafka\0");
        Path fd = Files.createDirectories(root.resolve("4242/fd"));
        Files.createSymbolicLink(fd.resolve("0"), Path.of("/dev/null"));
        Files.createSymbolicLink(fd.resolve("12"), Path.of("socket:[991]"));
        Files.write(root.resolve("4242/cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
        return root;
    }

    @Test
    void anOrphanedRegistryOnThePortIsNamedWithItsPidAndCommand(@TempDir Path dir) throws Exception {
        Path proc = fakeProc(dir, "/usr/lib/jvm/bin/java\0-Dquarkus.http.port=8081\0-jar\0"
                + "/root/.capstream/apicurio/apicurio-registry-app-2.6.13-runner.jar\0");

        Optional<PortHolder.Holder> holder = PortHolder.find(8081, proc);

        assertEquals(Optional.of(new PortHolder.Holder(4242, "/usr/lib/jvm/bin/java -Dquarkus.http.port=8081 -jar "
                + "/root/.capstream/apicurio/apicurio-registry-app-2.6.13-runner.jar")), holder,
                "the listener's inode 991 (not the connected socket 992, not port 9092's 990)");
        String message = UpStack.portInUse(8081, "--registry-port", "the schema registry", holder.get());
        assertEquals("port 8081 on 127.0.0.1 is already in use, so the schema registry cannot listen on it. It is held by"
                + " PID 4242 (/usr/lib/jvm/bin/java -Dquarkus.http.port=8081 -jar"
                + " /root/.capstream/apicurio/apicurio-registry-app-2.6.13-runner.jar), probably the schema registry of an"
                + " earlier `capstream up` that was killed (an orphan): stop it with `kill 4242`. Stop that process or"
                + " choose another port with --registry-port PORT.", message);
    }

    /**
     * A fresh user's finding: a second {@code up} called the registry of a running {@code up} an orphan and advised
     * {@code kill} on it, which would break that stack.
     */
    @Test
    void aRunningUpsRegistryIsNamedAsSuchNotAsAnOrphan(@TempDir Path dir) throws Exception {
        Path proc = fakeProc(dir, "/usr/lib/jvm/bin/java\0-Dquarkus.http.port=8081\0-jar\0"
                + "/root/.capstream/apicurio/apicurio-registry-app-2.6.13-runner.jar\0");
        Files.writeString(proc.resolve("4242/stat"), "4242 (java) S 4100 4100 17 0 -1 4194560 0 0 0 0\n");
        Files.createDirectories(proc.resolve("4100"));
        Files.write(proc.resolve("4100/cmdline"), "java\0-jar\0/work/cli/target/capstream.jar\0up\0"
                .getBytes(StandardCharsets.UTF_8));

        PortHolder.Holder holder = PortHolder.find(8081, proc).orElseThrow();

        assertThat(holder.parentPid()).as("parent pid from stat").isEqualTo(4100);
        String message = UpStack.portInUse(8081, "--registry-port", "the schema registry", holder);
        assertThat(message).as("port-in-use message")
                .contains(", the schema registry of a running capstream (PID 4100: java -jar"
                        + " /work/cli/target/capstream.jar up): use that stack, or stop it (Ctrl-C in its terminal, or"
                        + " `kill 4100`).")
                .doesNotContain("orphan").doesNotContain("kill 4242");

        Files.writeString(proc.resolve("4242/stat"), "4242 (java) S 1 4100 17 0 -1 4194560 0 0 0 0\n");
        assertThat(UpStack.portInUse(8081, "--registry-port", "the schema registry",
                PortHolder.find(8081, proc).orElseThrow())).as("its parent gone: an orphan").contains("(an orphan)");
    }

    @Test
    void anotherProcessIsNamedWithoutGuessing(@TempDir Path dir) throws Exception {
        Path proc = fakeProc(dir, "python3\0-m\0http.server\08081\0");

        PortHolder.Holder holder = PortHolder.find(8081, proc).orElseThrow();

        assertEquals(4242, holder.pid());
        String message = UpStack.portInUse(8081, "--registry-port", "the schema registry", holder);
        assertThat(message).contains("It is held by PID 4242 (python3 -m http.server 8081). Stop that process");
        assertEquals(Optional.empty(), PortHolder.find(8082, proc), "nobody listens on 8082");
        assertThat(UpStack.portInUse(8082, "--kafka-port", "Kafka", null)).as("unknown holder: the old hint")
                .contains("(is another capstream up or a broker running?)");
    }

    @Test
    void thisJvmIsFoundHoldingARealSocket() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Optional<PortHolder.Holder> holder = PortHolder.find(s.getLocalPort());

            assertEquals(Optional.of(ProcessHandle.current().pid()), holder.map(PortHolder.Holder::pid),
                    "the real /proc names this JVM as the holder of port " + s.getLocalPort());
            assertThat(holder.get().command()).contains("java");
        }
    }
}

package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code run}, {@code generate} and {@code generate --continuous} with a schema registry URL on a
 * closed port: one clear line naming the registry, exit 1, quickly, no broker started and no
 * request sent to the target (issue 11, item 3: a run against a stopped registry would measure the
 * endpoint and then be unable to encode a single event).
 */
class RegistryUnreachableTest {
    private CountingTarget target;
    private String registry;

    @BeforeEach
    void start() throws Exception {
        target = new CountingTarget();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            registry = "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    @AfterEach
    void stop() {
        target.close();
    }

    @Test
    @Timeout(30)
    void runFailsBeforeSendingAnything() {
        CliRun r = run("run", "--schema-registry-url", registry, "--base-url", target.baseUrl(), "--model", "m",
                "--max-model-len", "4096", "--requests", "2");
        assertOneLine(r, "capstream run");
    }

    @Test
    @Timeout(30)
    void generateFailsBeforeSendingAnything() {
        CliRun r = run("generate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", registry,
                "--base-url", target.baseUrl(), "--model", "m", "--max-model-len", "4096", "--requests", "2");
        assertOneLine(r, "capstream generate");
    }

    @Test
    @Timeout(30)
    void continuousGenerateFailsBeforeSendingAnything() {
        CliRun r = run("generate", "--continuous", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", registry,
                "--base-url", target.baseUrl(), "--model", "m", "--max-model-len", "4096", "--requests", "2");
        assertOneLine(r, "capstream generate --continuous");
    }

    private void assertOneLine(CliRun r, String cmd) {
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.err().lines().filter(l -> l.startsWith("capstream ")).toList();
        assertEquals(List.of(cmd + ": cannot reach the schema registry at " + registry
                + ": connection refused (is it running, and is the URL right?); nothing was sent"), lines, r.err());
        assertEquals(0, target.hits(), "no request may reach the target");
    }


}

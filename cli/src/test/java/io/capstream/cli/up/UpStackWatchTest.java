package io.capstream.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code capstream up} supervises its registry child (issue 27.5): when the child dies, the stack
 * stops and says why, instead of printing that it runs while every {@code run} fails its pre-flight.
 * A fake child process ({@code sleep}) stands in for the registry.
 */
class UpStackWatchTest {
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    private String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aKilledChildStopsTheStackWithTheReason() throws Exception {
        Process child = new ProcessBuilder("sleep", "600").start();
        UpStack stack = UpStack.forTest(log);
        stack.watch(child.pid(), child.onExit().thenApply(Process::exitValue), () -> "INFO Listening on: http://127.0.0.1:8081");
        try {
            child.destroyForcibly(); // kill -9 of the registry

            assertTrue(stack.awaitClosed(Duration.ofSeconds(60)), "the stack stopped by itself; log: " + log());
            assertEquals("the schema registry (child process " + child.pid() + ") exited unexpectedly with code 137"
                    + " (killed by signal 9); the stack is useless without it, so capstream up stops (start it again to"
                    + " get a new one)", stack.failure());
            assertThat(log()).contains("capstream up: " + stack.failure() + ". Its last output:\nINFO Listening on");
        } finally {
            child.destroyForcibly();
            stack.close();
        }
    }

    @Test
    void aStackStoppedOnPurposeHasNoFailure() throws Exception {
        UpStack stack = UpStack.forTest(log);
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        stack.watch(4242, exit, () -> "");

        stack.close();
        exit.complete(143); // as if the child exited late

        assertTrue(stack.awaitClosed(Duration.ofSeconds(1)));
        assertNull(stack.failure(), "Ctrl-C / SIGTERM is no failure; log: " + log());
        assertThat(log()).doesNotContain("unexpectedly");
    }
}

package io.capstream.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.text.SecretMask;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ConsoleMask}: what a command prints passes the secrets it was given, line by line. */
class ConsoleMaskTest {
    @Test
    void installedStreamsMaskTheAddedSecretsAndUrlUserInfoAndAreRestoredAfter() {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            PrintStream captureOut = System.out;
            try (ConsoleMask.Installed console = ConsoleMask.install()) {
                System.out.println("before: key-1234567");
                ConsoleMask.add(SecretMask.of(List.of("key-1234567")));
                System.out.print("a key split over prints: key-123");
                System.out.println("4567 and ünïcode");
                System.err.printf("GET http://u:pw@h/metrics answered 500%n");
                System.err.print("\rprogress key-1234567");
                System.err.flush();
            }
            assertEquals(captureOut, System.out, "the original stream is back");
            System.out.println("after: key-1234567");
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        assertEquals("before: key-1234567\na key split over prints: *** and ünïcode\nafter: key-1234567\n",
                out.toString(StandardCharsets.UTF_8), "masked while installed, from the time the secret is added");
        assertEquals("GET http://***@h/metrics answered 500\n\rprogress ***", err.toString(StandardCharsets.UTF_8));
    }
}

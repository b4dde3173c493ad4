package io.capstream.cli.commands;

import io.capstream.cli.CapstreamMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One {@code capstream} command run in this JVM with its stderr captured (and echoed to the real
 * stderr, for the test log). Runs are serialised: {@code System.err} is global.
 *
 * @param code the exit code
 * @param err  everything the command wrote to stderr
 */
public record CliRun(int code, String err) {
    /** @return stderr's lines */
    public List<String> lines() {
        return err.lines().toList();
    }

    /**
     * @param args the command line after {@code capstream}
     * @return its exit code and stderr
     */
    public static CliRun run(String... args) {
        synchronized (CliRun.class) {
            PrintStream oldErr = System.err;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code;
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                code = CapstreamMain.execute(args);
            } finally {
                System.setErr(oldErr);
            }
            String text = err.toString(StandardCharsets.UTF_8);
            oldErr.println("capstream " + String.join(" ", args) + " -> exit " + code + "\n" + text);
            return new CliRun(code, text);
        }
    }
}

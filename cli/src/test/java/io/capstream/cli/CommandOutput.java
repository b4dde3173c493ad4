package io.capstream.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@link CapstreamMain#execute} in this JVM and captures what it prints on stdout and stderr. */
public record CommandOutput(int exitCode, String out, String err) {
    /**
     * Runs one command and echoes it, its exit code and its stdout to the real stdout.
     *
     * @param args the command line after {@code capstream}
     * @return the exit code and what the command printed
     */
    public static synchronized CommandOutput run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = CapstreamMain.execute(args);
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        CommandOutput result = new CommandOutput(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
        oldOut.println("capstream " + String.join(" ", args) + " -> exit " + code + "\n" + result.out);
        return result;
    }
}

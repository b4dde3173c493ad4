package io.capstream.cli.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures {@code System.out} and {@code System.err} for each test of a command run in-process
 * ({@code CapstreamMain.execute}), and prints what was captured after the test, so that a failing test's log
 * still shows the command's output. Register with {@code @RegisterExtension}.
 */
public final class CapturedConsole implements BeforeEachCallback, AfterEachCallback {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;

    @Override
    public void beforeEach(ExtensionContext context) {
        outBytes.reset();
        errBytes.reset();
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setOut(oldOut);
        System.setErr(oldErr);
        oldOut.print(out());
        oldErr.print(err());
    }

    /** @return what the test printed on stdout so far */
    public String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    /** @return what the test printed on stderr so far */
    public String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }
}

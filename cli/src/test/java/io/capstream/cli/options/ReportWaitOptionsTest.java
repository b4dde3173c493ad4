package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link ReportWaitOptions}, the {@code --output-dir}, {@code --timeout} and {@code --external-aggregator}
 * of {@code import} and {@code replay}: each command's help words them for what it recomputes, and
 * both check them the same way before any work (usage error, exit code 2).
 */
class ReportWaitOptionsTest {
    @TempDir
    Path tmp;

    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... args) {
        CommandLine root = CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new java.util.Properties()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        root.setOut(new PrintWriter(out, true));
        root.setErr(new PrintWriter(err, true));
        int code = root.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /** @return the command's help without any white space (picocli wraps lines also after a '.') */
    private static String help(String command) {
        Result r = run(command, "--help");
        assertEquals(0, r.exitCode(), r.err());
        return r.out().replaceAll("\\s+", "");
    }

    private static void assertHelpHas(String help, String text) {
        assertThat(help).as(text + " in " + help).contains(text.replaceAll("\\s+", ""));
    }

    @Test
    void importWordsTheOptionsForFiles() {
        String help = help("import");
        assertHelpHas(help, "--output-dir=DIR Where recomputed reports are written, one file per input with the"
                + " input's name. Default: out.");
        assertHelpHas(help, "--timeout=DURATION How long to wait for each file's report, e.g. 90s or 5m (a bare"
                + " number is seconds), 1s to 1 day. Default: 60s.");
        assertHelpHas(help, "--external-aggregator Do not run the report topology in this process; wait for"
                + " reports from a running 'capstream aggregate' (needs --bootstrap-servers).");
    }

    @Test
    void replayWordsTheOptionsForReplays() {
        String help = help("replay");
        assertHelpHas(help, "--output-dir=DIR Where replay reports are written (<replay run id>.json). Default: out.");
        assertHelpHas(help, "--timeout=DURATION How long to wait for each replay's report, e.g. 90s or 5m (a bare"
                + " number is seconds), 1s to 1 day. Default: 60s.");
        assertHelpHas(help, "--external-aggregator Do not run the report topology in this process; wait for"
                + " reports from a running 'capstream aggregate'.");
        assertThat(help).as("replay needs --bootstrap-servers anyway").doesNotContain("aggregate'(needs");
    }

    @Test
    void bothCommandsCheckTheTimeoutAndTheOutputDirectoryBeforeAnyWork() throws Exception {
        Result imp = run("import", "--timeout", "0", "x.json");
        assertEquals(2, imp.exitCode(), imp.err());
        assertEquals("capstream import: --timeout must be 1..86400 seconds, got 0", imp.err().strip());

        // port 1: nothing answers, so reaching Kafka would fail differently (exit 1)
        Result rep = run("replay", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://rwo",
                "--all", "--timeout", "86401");
        assertEquals(2, rep.exitCode(), rep.err());
        assertEquals("capstream replay: --timeout must be 1..86400 seconds, got 86401", rep.err().strip());

        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        Result dir = run("replay", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://rwo",
                "--all", "--output-dir", file.toString());
        assertEquals(2, dir.exitCode(), dir.err());
        assertEquals("capstream replay: --output-dir " + file + " is not a directory", dir.err().strip());

        Result ext = run("import", "--external-aggregator", "x.json");
        assertEquals(2, ext.exitCode(), ext.err());
        assertEquals("capstream import: --external-aggregator needs --bootstrap-servers", ext.err().strip());
    }
}

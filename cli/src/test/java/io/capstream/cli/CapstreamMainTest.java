package io.capstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command tree as a user meets it: usage errors, version, help. */
class CapstreamMainTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome execute(Map<String, String> env, String... args) {
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, env));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void usageErrorIsOneLineWithAPointerToHelpNotTheWholeUsage() {
        Outcome o = execute(Map.of(), "run", "--concurrency", "abc");
        assertEquals(2, o.code());
        String[] lines = o.err().strip().split("\n");
        assertEquals(2, lines.length, o.err());
        assertTrue(lines[0].startsWith("capstream run: Invalid value for option '--concurrency': 'abc'"), lines[0]);
        assertEquals("Try 'capstream run --help' for the options.", lines[1]);
        assertFalse(o.err().contains("Usage:"));
    }

    @Test
    void valueFromTheEnvironmentIsNamedInTheOneLineError() {
        Outcome o = execute(Map.of("CAPSTREAM_REQUESTS", "abc"), "run");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("CAPSTREAM_REQUESTS"), o.err());
        assertTrue(o.err().strip().split("\n").length <= 3, o.err());
    }

    @Test
    void mistypedOptionGetsASuggestion() {
        Outcome o = execute(Map.of(), "run", "--concurency", "4");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--concurrency"), o.err());
        assertFalse(o.err().contains("Usage:"));
    }

    @Test
    void everySubcommandPrintsTheVersion() {
        for (String sub : new String[] {"run", "generate", "aggregate", "import", "replay", "tail", "sim", "up"}) {
            Outcome o = execute(Map.of(), sub, "-V");
            assertEquals(0, o.code(), sub);
            assertTrue(o.out().startsWith("capstream "), sub + ": " + o.out());
        }
    }

    @Test
    void helpListsTheExitCodesOfAStopBySignal() {
        // the JVM exits 128 + the signal number after the orderly stop (SignalExitCodesIT); aggregate's help
        // said "0: stopped by Ctrl-C or SIGTERM"
        for (String sub : new String[] {"run", "generate", "aggregate", "tail", "sim", "up"}) {
            Outcome o = execute(Map.of(), sub, "--help");
            assertEquals(0, o.code(), sub);
            assertTrue(o.out().contains("130") && o.out().contains("stopped by Ctrl-C (SIGINT)"), sub + ": " + o.out());
            assertTrue(o.out().contains("143") && o.out().contains("stopped by SIGTERM"), sub + ": " + o.out());
            assertFalse(o.out().matches("(?s).*\\b0\\s+stopped.*"), sub + ": " + o.out());
        }
    }
}

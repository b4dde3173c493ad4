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
        for (String sub : new String[] {"run", "sweep", "generate", "aggregate", "import", "replay", "report", "compare",
                "tail", "sim", "up"}) {
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

    @Test
    void theRootHelpListsReportAndCompare() {
        Outcome o = execute(Map.of(), "--help");
        assertEquals(0, o.code());
        assertTrue(o.out().matches("(?s).*\\n\\s+report\\s+Prints the summary of a report.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n\\s+compare\\s+Compares two runs' reports.*"), o.out());
    }

    @Test
    void theVisualOutputsAreDocumentedOnEveryCommandThatWritesAReport() {
        for (String sub : new String[] {"run", "sweep", "import", "replay", "report"}) {
            Outcome o = execute(Map.of(), sub, "--help");
            assertEquals(0, o.code(), sub);
            assertTrue(o.out().contains("--html=FILE") && o.out().contains("--csv=FILE"), sub + ": " + o.out());
            assertTrue(o.out().replaceAll("\\s+", " ").contains("self-contained HTML page"), sub + ": " + o.out());
        }
        Outcome compare = execute(Map.of(), "compare", "--help");
        assertTrue(compare.out().contains("--html=FILE") && !compare.out().contains("--csv"), compare.out());
        Outcome report = execute(Map.of(), "report", "--help");
        assertTrue(report.out().contains("--json=FILE") && report.out().contains("--bootstrap-servers"), report.out());
    }
}

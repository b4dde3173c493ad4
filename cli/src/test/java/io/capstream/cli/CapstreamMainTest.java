package io.capstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertThat(lines[0]).startsWith("capstream run: Invalid value for option '--concurrency': 'abc'");
        assertEquals("Try 'capstream run --help' for the options.", lines[1]);
        assertThat(o.err()).doesNotContain("Usage:");
    }

    @Test
    void valueFromTheEnvironmentIsNamedInTheOneLineError() {
        Outcome o = execute(Map.of("CAPSTREAM_REQUESTS", "abc"), "run");
        assertEquals(2, o.code());
        assertThat(o.err()).contains("CAPSTREAM_REQUESTS");
        assertTrue(o.err().strip().split("\n").length <= 3, o.err());
    }

    @Test
    void mistypedOptionGetsASuggestion() {
        Outcome o = execute(Map.of(), "run", "--concurency", "4");
        assertEquals(2, o.code());
        assertThat(o.err()).contains("--concurrency");
        assertThat(o.err()).doesNotContain("Usage:");
    }

    @Test
    void everySubcommandPrintsTheVersion() {
        for (String sub : new String[] {"run", "sweep", "generate", "aggregate", "import", "replay", "report", "compare",
                "tail", "sim", "up"}) {
            Outcome o = execute(Map.of(), sub, "-V");
            assertEquals(0, o.code(), sub);
            assertThat(o.out()).as(sub + ": " + o.out()).startsWith("capstream ");
        }
    }

    @Test
    void helpListsTheExitCodesOfAStopBySignal() {
        // the JVM exits 128 + the signal number after the orderly stop (SignalExitCodesIT); aggregate's help
        // said "0: stopped by Ctrl-C or SIGTERM"
        for (String sub : new String[] {"run", "generate", "aggregate", "tail", "sim", "up"}) {
            Outcome o = execute(Map.of(), sub, "--help");
            assertEquals(0, o.code(), sub);
            assertThat(o.out()).as(sub + ": " + o.out()).contains("130", "stopped by Ctrl-C (SIGINT)");
            assertThat(o.out()).as(sub + ": " + o.out()).contains("143", "stopped by SIGTERM");
            assertThat(o.out()).as(sub + ": " + o.out()).doesNotMatch("(?s).*\\b0\\s+stopped.*");
        }
    }

    @Test
    void theRootHelpListsReportAndCompare() {
        Outcome o = execute(Map.of(), "--help");
        assertEquals(0, o.code());
        assertThat(o.out()).matches("(?s).*\\n\\s+report\\s+Prints the summary of a report.*");
        assertThat(o.out()).matches("(?s).*\\n\\s+compare\\s+Compares two runs' reports.*");
    }

    @Test
    void theVisualOutputsAreDocumentedOnEveryCommandThatWritesAReport() {
        for (String sub : new String[] {"run", "sweep", "import", "replay", "report"}) {
            Outcome o = execute(Map.of(), sub, "--help");
            assertEquals(0, o.code(), sub);
            assertThat(o.out()).as(sub + ": " + o.out()).contains("--html=FILE", "--csv=FILE");
            assertThat(o.out().replaceAll("\\s+", " ")).as(sub + ": " + o.out()).contains("self-contained HTML page");
        }
        Outcome compare = execute(Map.of(), "compare", "--help");
        assertThat(compare.out()).contains("--html=FILE");
        assertThat(compare.out()).doesNotContain("--csv");
        Outcome report = execute(Map.of(), "report", "--help");
        assertThat(report.out()).contains("--json=FILE", "--bootstrap-servers");
    }
}

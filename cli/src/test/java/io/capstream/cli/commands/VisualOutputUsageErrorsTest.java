package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --html}/{@code --csv} (issue 13) and the {@code report}/{@code compare} arguments: a bad path or
 * source is one line and exit 2 before anything starts (no broker, no request to the target).
 */
class VisualOutputUsageErrorsTest {
    @TempDir
    Path tmp;

    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    private static Path seed() {
        return Path.of(System.getProperty("capstream.testdata.dir", "../testdata"), "corpus", "seed-example.json");
    }

    @Test
    @Timeout(20)
    void runRejectsAnHtmlFileNoFileCanBeCreatedFor() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--output", tmp.resolve("r.json").toString(),
                "--html", "/proc/capstream/run.html");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --html: cannot create a file in /proc (the directory accepts no new files)"),
                r.lines());
        assertThat(r.err()).as("no broker was started").doesNotContain("embedded Kafka");
        assertEquals(0, target.hits());
    }

    @Test
    @Timeout(20)
    void runRejectsADirectoryAsCsvAndTheReportFileAsHtml() {
        Path report = tmp.resolve("r.json");
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--output", report.toString(),
                "--csv", tmp.toString(), "--html", report.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --csv: " + tmp + " is a directory: give a file name, e.g. "
                        + tmp.resolve("requests.csv"),
                "capstream run: --html: " + report + " is the report file itself"), r.lines());
        assertEquals(0, target.hits());
    }

    @Test
    @Timeout(20)
    void runWithoutAReportHasNoPage() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--no-aggregator",
                "--bootstrap-servers", "127.0.0.1:1", "--html", tmp.resolve("p.html").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --html and --csv need the report: not with --no-aggregator"), r.lines());
    }

    @Test
    @Timeout(20)
    void sweepListsTheBadHtmlWithItsOtherProblems() {
        CliRun r = run("sweep", "--base-url", target.baseUrl(), "--model", "m", "--concurrency", "1,2",
                "--output-dir", tmp.resolve("out").toString(), "--html", "/proc/sweep.html");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream sweep: --html: cannot create a file in /proc (the directory accepts no new files)"),
                r.lines());
        assertFalse(Files.exists(tmp.resolve("out")));
        assertEquals(0, target.hits());
    }

    @Test
    @Timeout(20)
    void importTakesOneArtifactForItsPage() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("in"));
        Files.copy(seed(), dir.resolve("a.json"));
        Files.copy(seed(), dir.resolve("b.json"));
        CliRun r = run("import", "--output-dir", tmp.resolve("out").toString(), "--html", tmp.resolve("p.html").toString(),
                dir.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream import: --html and --csv take one artifact file, got 2 (import the file alone"
                + " to get its page)"), r.lines());
        r = run("import", "--csv", "/proc/x.csv", seed().toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream import: --csv: cannot create a file in /proc (the directory accepts no new"
                + " files)"), r.lines());
    }

    @Test
    @Timeout(20)
    void replayTakesOneRunForItsPage() {
        CliRun r = run("replay", "--all", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                "--html", tmp.resolve("p.html").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream replay: --html and --csv take one run (a single --run-id) or one sweep"
                + " (--sweep-id)"), r.lines());
    }

    @Test
    @Timeout(20)
    void reportOfARunIdNeedsKafkaAndOfAFileAReport() throws Exception {
        CliRun r = run("report", "benchmark-nope");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream report: 'benchmark-nope' is not a file; reading run id benchmark-nope from"
                + " capstream.reports needs --bootstrap-servers and --schema-registry-url (an embedded broker has no"
                + " history)"), r.lines());
        Path junk = Files.writeString(tmp.resolve("junk.json"), "[1, 2]");
        r = run("report", junk.toString(), "--html", tmp.resolve("p.html").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream report: " + junk + ": not a report artifact (not a JSON object)"), r.lines());
        assertFalse(Files.exists(tmp.resolve("p.html")));
        r = run("report", seed().toString(), "--json", "/proc/r.json");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream report: --json: cannot create a file in /proc (the directory accepts no new"
                + " files)"), r.lines());
    }

    @Test
    @Timeout(30)
    void reportOfARunIdOnAnUnreachableKafkaExitsOne() {
        CliRun r = run("report", "benchmark-nope", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url",
                "mock://x");
        assertEquals(1, r.code(), r.err());
        assertThat(r.err()).contains("capstream report: cannot reach Kafka at 127.0.0.1:1");
        assertEquals(1, r.lines().stream().filter(l -> l.startsWith("capstream report:")).count(), r.err());
    }

    @Test
    @Timeout(20)
    void compareNamesEachBadArgument() throws Exception {
        Path junk = Files.writeString(tmp.resolve("junk.json"), "{\"schema\":\"anvil-serving.benchmark/v1\"}");
        CliRun r = run("compare", junk.toString(), seed().toString(), "--html", "/proc/c.html");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream compare: --html: cannot create a file in /proc (the directory accepts no new"
                + " files)"), r.lines());
        r = run("compare", junk.toString(), seed().toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream compare: " + junk + ": not a report artifact (no run_id)"), r.lines());
        r = run("compare", seed().toString(), seed().toString(), "--threshold", "-1");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream compare: --threshold must be a percentage >= 0 and < 100, got -1.0"), r.lines());
    }

    @Test
    void compareSaysWhichThresholdItsVerdictsUse() throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cmd = io.capstream.cli.CapstreamMain.newCommandLine(
                new io.capstream.cli.config.ConfigDefaultProvider(java.util.Map.of(), new java.util.Properties()));
        cmd.setOut(new java.io.PrintWriter(out, true));
        int code = cmd.execute("compare", seed().toString(), seed().toString(), "--threshold", "2.5");
        assertEquals(0, code, out.toString());
        assertThat(out.toString()).contains("rows without an interval: changes within +/-2.5 % of A are \"same\" (--threshold)");
        assertThat(out.toString()).as("equal values without an interval are \"same\": " + out)
                .contains("0.0%  -                      same (threshold)\n");
    }

    /** Before: report/compare/import/sweep replaced the report they read (or their sweep.json) by the page, exit 0. */
    @Test
    @Timeout(30)
    void noOutputMayReplaceAReportTheCommandReadsOrItsSweepJson() throws Exception {
        Path report = Files.copy(seed(), tmp.resolve("victim.json"));
        byte[] before = Files.readAllBytes(report);
        CliRun r = run("report", report.toString(), "--html", report.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream report: --html: " + report + " is the report being read"), r.lines());
        r = run("report", report.toString(), "--csv", tmp.resolve("./victim.json").toString(), "--json", report.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("capstream report: --json: " + report + " is the report being read", r.lines().get(0));
        Path page = tmp.resolve("p.html");
        r = run("report", report.toString(), "--json", page.toString(), "--html", page.toString());
        assertEquals(List.of("capstream report: --html: " + page + " is also the --json output"), r.lines());
        r = run("compare", seed().toString(), report.toString(), "--html", report.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream compare: --html: " + report + " is report B, which is being read"), r.lines());
        r = run("import", "--output-dir", tmp.resolve("out").toString(), "--csv", report.toString(), report.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream import: --csv: " + report + " is the artifact being imported"), r.lines());
        Path dir = tmp.resolve("sweep");
        r = run("sweep", "--base-url", target.baseUrl(), "--model", "m", "--concurrency", "1", "--output-dir",
                dir.toString(), "--html", dir.resolve("sweep.json").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream sweep: --html: " + dir.resolve("sweep.json") + " is the sweep's sweep.json"),
                r.lines());
        assertEquals(0, target.hits());
        assertArrayEquals(before, Files.readAllBytes(report), "the report is untouched");
    }
}

package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Problems found before any load is sent (issue 11, items 4 and 7): one line naming the flag, exit
 * 2, no broker started, no request (not even the {@code /models} probe) reaching the target.
 */
class RunUsageErrorsTest {
    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    private String baseUrl() {
        return target.baseUrl();
    }



    private void assertUsageError(CliRun r, String line) {
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of(line), r.lines());
        assertEquals(0, target.hits(), "nothing may reach the target");
    }

    @Test
    @Timeout(30)
    void datasetAndLengthProblemsAreOneLineUsageErrors() {
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--dataset", "no-such.jsonl"),
                "capstream run: --dataset: no such file: no-such.jsonl");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--output-tokens", "128,x"),
                "capstream run: --output-tokens must be MEAN or MEAN,STDDEV (tokens), got '128,x'");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m",
                        "--tokenizer", "src/test/resources/datasets/chat.jsonl"),
                "capstream run: --tokenizer counts the tokens of a --dataset or of --input-tokens prompts; give one of"
                        + " them");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--input-tokens", "512",
                        "--tokenizer", "no-such-tokenizer.json"),
                "capstream run: --tokenizer: no readable file no-such-tokenizer.json");
        CliRun r = run("run", "--base-url", baseUrl(), "--model", "m", "--dataset",
                "src/test/resources/datasets/chat.jsonl", "--tokenizer", "src/test/resources/datasets/chat.jsonl");
        assertEquals(2, r.code(), r.err());
        // the file's content is read when the run is prepared (after the line saying when the broker starts)
        String last = r.lines().get(r.lines().size() - 1);
        assertThat(last).as(r.err()).startsWith("capstream run: --tokenizer src/test/resources/datasets/chat.jsonl:"
                + " cannot load the tokenizer (");
        assertEquals(List.of(last), r.lines().stream().filter(l -> l.startsWith("capstream run:")).toList());
        assertEquals(0, target.hits(), "nothing may reach the target");
    }

    @Test
    @Timeout(20)
    void malformedBaseUrlIsAUsageErrorNotAHang() {
        assertUsageError(run("run", "--base-url", "http://[::1", "--model", "m"),
                "capstream run: --base-url is not a valid URL (Expected closing bracket for IPv6 address at index 11):"
                        + " 'http://[::1'");
    }

    @Test
    @Timeout(20)
    void emptyBaseUrlIsAUsageErrorNotTheSimulatedEngine() {
        // before: an empty --base-url counted as none given, and the run measured the built-in sim in its place
        String line = "--base-url is empty: give the endpoint's URL (e.g. http://127.0.0.1:8000/v1), or leave"
                + " --base-url out to measure the built-in simulated engine";
        assertUsageError(run("run", "--base-url", "", "--model", "m"), "capstream run: " + line);
        assertUsageError(run("run", "--base-url", "  ", "--model", "m"), "capstream run: " + line);
        assertUsageError(run("check", "--base-url", "", "--model", "m"), "capstream check: " + line + "; nothing was sent");
        assertUsageError(run("sweep", "--base-url", "", "--model", "m", "--concurrency", "1,2"),
                "capstream sweep: " + line);
        assertUsageError(run("rerun", "some-run", "--base-url", "", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "mock://x"), "capstream rerun: " + line);
    }

    @Test
    @Timeout(20)
    void portAbove65535IsAUsageErrorNotAHang() {
        assertUsageError(run("run", "--base-url", "http://127.0.0.1:70000/v1", "--model", "m"),
                "capstream run: --base-url has port 70000, outside 1..65535: 'http://127.0.0.1:70000/v1'");
        assertUsageError(run("generate", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x",
                        "--base-url", "http://u:pw@127.0.0.1:70000/v1", "--model", "m"),
                "capstream generate: --base-url has port 70000, outside 1..65535: 'http://***@127.0.0.1:70000/v1'");
    }

    @Test
    @Timeout(20)
    void schemaRegistryUrlsAreCheckedLikeTheBaseUrl() {
        CliRun r = run("run", "--schema-registry-url", "http://127.0.0.1:99999", "--base-url", baseUrl(), "--model", "m");
        assertEquals(2, r.code(), r.err());
        assertEquals("capstream run: Invalid value for option '--schema-registry-url': http://127.0.0.1:99999 has"
                + " port 99999, outside 1..65535", r.lines().get(0));
        r = run("run", "--schema-registry-url", "http://a:8081,http://[::1", "--base-url", baseUrl(), "--model", "m");
        assertEquals(2, r.code(), r.err());
        assertEquals("capstream run: Invalid value for option '--schema-registry-url': http://[::1 is not a valid URL"
                + " (Expected closing bracket for IPv6 address at index 11)", r.lines().get(0));
        assertEquals(0, target.hits());
    }

    @Test
    @Timeout(20)
    void runIdsThatCannotNameAFileAreRejected() {
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--run-id", "team/a"),
                "capstream run: --run-id must not contain '/' (it names the report file): 'team/a'");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--run-id", "x".repeat(300)),
                "capstream run: --run-id is 300 characters long, at most 200");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--run-id", "a\tb"),
                "capstream run: --run-id must not contain control characters (U+0009 at index 1)");
    }

    @Test
    @Timeout(20)
    void anOutputPathNoFileCanBeCreatedInIsRejected() {
        CliRun r = run("run", "--base-url", baseUrl(), "--model", "m", "--output", "/proc/capstream-report.json");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.lines().size(), r.err());
        assertThat(r.lines().get(0)).as(r.err()).startsWith("capstream run: --output: cannot create a file in /proc (");
        assertThat(r.err()).as("no broker was started").doesNotContain("embedded Kafka");
        assertEquals(0, target.hits());
    }

    @Test
    @Timeout(20)
    void aReportTimeoutBelowOneSecondIsAUsageErrorBeforeTheRun() {
        // found by a fresh-user check: --report-timeout -1 ran the whole benchmark, then waited "-1 s" for no report
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--report-timeout", "-1"),
                "capstream run: --report-timeout must be 1..86400 seconds, got -1; nothing was sent");
    }

    @Test
    @Timeout(20)
    void importRejectsABadTimeoutAndAnOutputDirThatIsAFileBeforeStartingAnything(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("afile"), "x");
        java.nio.file.Path artifact = java.nio.file.Path.of(System.getProperty("capstream.testdata.dir", "../testdata"),
                "corpus", "seed-example.json");
        CliRun r = run("import", "--timeout", "-5", artifact.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream import: --timeout must be 1..86400 seconds, got -5"), r.lines());
        r = run("import", "--output-dir", file.toString(), artifact.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream import: --output-dir " + file + " is not a directory"), r.lines());
    }

    // several wrong parameters are listed at once, one line each, in the order of their groups
    @Test
    @Timeout(20)
    void everyProblemOfTheRunIsOneLine() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--requests", "0",
                "--max-model-len", "1000", "--run-id", "a/b");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: --requests must be between 1 and 100000, got 0",
                "capstream run: --max-model-len 1000 must exceed --max-tokens + --margin (1088)",
                "capstream run: --run-id must not contain '/' (it names the report file): 'a/b'"), r.lines());
        assertEquals(0, target.hits(), "nothing may reach the target");
    }

    @Test
    @Timeout(20)
    void theSimulatedTargetIsCheckedBeforeItStarts() {
        CliRun r = run("run", "--ctx-tokens", "16", "--sim-slots", "0");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("capstream run: simulated engine: batch slots must be >= 1",
                "capstream run: --ctx-tokens must be 0 or between 32 and 1048576, got 16"), r.lines());
    }

    @Test
    @Timeout(30)
    void badStopRulesAreOneLineUsageErrors() {
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--max-error-rate", "2"),
                "capstream run: --max-error-rate must be a share between 0 and 1 (exclusive), got 2.0");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--max-error-rate", "0.2/x"),
                "capstream run: --max-error-rate must be R or R/WINDOW (a share 0..1, requests), e.g. 0.2/50, got"
                        + " '0.2/x'");
        assertUsageError(run("run", "--base-url", baseUrl(), "--model", "m", "--max-consecutive-errors", "0"),
                "capstream run: --max-consecutive-errors must be at least 1, got 0");
    }
}

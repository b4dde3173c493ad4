package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output file option given a directory: a fresh user's {@code run --html missing-dir/} wrote a file named
 * {@code missing-dir} (picocli's {@code Path} conversion drops the trailing slash). Every output file option
 * ({@code --output}, {@code --html}, {@code --csv}, {@code report --json}, {@code compare --html}) names the file
 * itself: a value ending in {@code /}, or an existing directory, is one usage-error line with an example file name,
 * exit 2, before anything is sent or written.
 */
class OutputFileDirectoryTest {
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

    /** @return {@code <tmp>/missing-dir/}: a value ending in '/', naming a directory that does not exist */
    private String missingDir() {
        return tmp.resolve("missing-dir") + "/";
    }

    private void assertRefused(CliRun r, String line) {
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly(line);
        assertThat(target.hits()).as("requests that reached the target").isZero();
        assertThat(tmp.resolve("missing-dir")).as("nothing is written for the directory's name").doesNotExist();
    }

    @Test
    @Timeout(30)
    void runRefusesATrailingSlashForEachOutputFile() {
        String dir = missingDir();
        assertRefused(run("run", "--base-url", target.baseUrl(), "--model", "m", "--html", dir),
                "capstream run: --html: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.html");
        assertRefused(run("run", "--base-url", target.baseUrl(), "--model", "m", "--csv", dir),
                "capstream run: --csv: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "requests.csv");
        assertRefused(run("run", "--base-url", target.baseUrl(), "--model", "m", "--output", dir),
                "capstream run: --output: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.json");
    }

    @Test
    @Timeout(30)
    void anExistingDirectoryIsRefusedWithAFileNameInIt() throws Exception {
        Path existing = Files.createDirectory(tmp.resolve("existing"));
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--output", existing.toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream run: --output: " + existing
                + " is a directory: give a file name, e.g. " + existing.resolve("report.json"));
        r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--html", tmp + "/existing/.");
        assertThat(r.lines()).as("stderr").containsExactly("capstream run: --html: " + tmp + "/existing/. names a"
                + " directory: give a file name, e.g. " + tmp + "/existing/./report.html");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(30)
    void theOtherCommandsRefuseItAlike() throws Exception {
        String dir = missingDir();
        assertRefused(run("sweep", "--base-url", target.baseUrl(), "--model", "m", "--concurrency", "1,2",
                        "--output-dir", tmp.resolve("out").toString(), "--html", dir),
                "capstream sweep: --html: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.html");
        assertRefused(run("import", "--output-dir", tmp.resolve("out").toString(), "--csv", dir, seed().toString()),
                "capstream import: --csv: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "requests.csv");
        assertRefused(run("report", seed().toString(), "--json", dir),
                "capstream report: --json: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.json");
        assertRefused(run("compare", seed().toString(), seed().toString(), "--html", dir),
                "capstream compare: --html: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "compare.html");
        // before the past run is read from Kafka (nothing answers on port 1)
        assertRefused(run("rerun", "some-run", "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url",
                        "mock://ofd", "--output", dir),
                "capstream rerun: --output: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.json");
        assertThat(tmp.resolve("out")).as("import and sweep wrote nothing").doesNotExist();
    }

    @Test
    @Timeout(30)
    void aValueFromTheConfigFileIsCheckedTheSameWay() throws Exception {
        String dir = missingDir();
        Path config = Files.writeString(tmp.resolve("capstream.properties"), "html=" + dir + "\n");
        assertRefused(run("run", "--config", config.toString(), "--base-url", target.baseUrl(), "--model", "m"),
                "capstream run: --html: " + dir + " names a directory (it ends in '/'): give a file name, e.g. "
                        + dir + "report.html");
    }

    @Test
    @Timeout(30)
    void aFileInAMissingDirectoryIsStillFine() {
        // a file name in a directory still to be created: as before
        CliRun r = run("report", seed().toString(), "--html", tmp.resolve("missing-dir/page.html").toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isZero();
        assertThat(tmp.resolve("missing-dir/page.html")).as("the page, its directory created").isRegularFile();
    }
}

package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A report file that cannot be written (a full disk, a path through a file) still leaves the report somewhere. */
class ReportFileTest {
    private static final String JSON = "{\"metrics\": {}}\n";

    @TempDir
    Path dir;

    @Test
    void aWritableFileIsWrittenWithoutAProblem() throws Exception {
        Path file = dir.resolve("out/report.json");
        ReportFile.Written w = ReportFile.write(file, JSON, dir.resolve("fallback/r.json"));
        assertThat(w.file()).as("file written").isEqualTo(file);
        assertThat(w.problem()).as("problem").isNull();
        assertThat(Files.readString(file)).as("content").isEqualTo(JSON);
    }

    @Test
    void anUnwritableFileGoesToTheFallbackDirectoryAndSaysWhy() throws Exception {
        Path blocker = Files.writeString(dir.resolve("blocker"), "a file, not a directory");
        Path file = blocker.resolve("report.json");
        Path fallback = dir.resolve("tmp/capstream-report-run-1.json");
        ReportFile.Written w = ReportFile.write(file, JSON, fallback);
        assertThat(w.file()).as("file written").isEqualTo(fallback);
        assertThat(Files.readString(w.file())).as("fallback content").isEqualTo(JSON);
        assertThat(w.problem()).as("problem").startsWith("cannot write the report to " + file + ": ")
                .endsWith("; written to " + fallback + " instead");
    }

    @Test
    void whenTheFallbackFailsTooNoFileIsNamedAndBothReasonsAreGiven() throws Exception {
        Path blocker = Files.writeString(dir.resolve("blocker"), "a file, not a directory");
        Path file = blocker.resolve("report.json");
        ReportFile.Written w = ReportFile.write(file, JSON, blocker.resolve("tmp/report.json"));
        assertThat(w.file()).as("file written").isNull();
        assertThat(w.problem()).as("problem").startsWith("cannot write the report to " + file + ": ")
                .contains("; nor to " + blocker.resolve("tmp/report.json") + ": ");
    }
}

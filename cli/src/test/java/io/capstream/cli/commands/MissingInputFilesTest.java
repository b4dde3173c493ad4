package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file argument that does not exist or cannot be read is a usage error: one line naming the path, exit 2, before
 * anything is imported or looked up. A fresh user's {@code capstream import /missing} printed {@code missing: <file>:
 * cannot read: /missing} and {@code 0 of 1 matched (1 invalid)} and exited 1, as for an invalid artifact; a readable
 * file that fails validation still is one (exit 1).
 */
class MissingInputFilesTest {
    @TempDir
    Path tmp;

    private static Path seed() {
        return Path.of(System.getProperty("capstream.testdata.dir", "../testdata"), "corpus", "seed-example.json");
    }

    @Test
    @Timeout(30)
    void importOfAMissingPathIsAUsageErrorBeforeAnythingIsImported() {
        Path missing = tmp.resolve("missing");
        Path out = tmp.resolve("out");
        CliRun r = run("import", "--output-dir", out.toString(), missing.toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream import: " + missing + ": no such file or directory");

        // with a good file beside it: nothing of it is imported either
        r = run("import", "--output-dir", out.toString(), seed().toString(), missing.toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream import: " + missing + ": no such file or directory");
        assertThat(out).as("no report was written").doesNotExist();
    }

    @Test
    @Timeout(30)
    void aReadableFileThatIsNoArtifactIsStillAnInvalidFile() throws Exception {
        Path junk = Files.writeString(tmp.resolve("junk.json"), "[1, 2]");
        CliRun r = run("import", "--output-dir", tmp.resolve("out").toString(), junk.toString());
        assertThat(r.code()).as("exit code (invalid, not a usage error); stderr %s", r.err()).isEqualTo(1);
        assertThat(r.err()).as("stderr").doesNotContain("capstream import:");
    }

    @Test
    @Timeout(30)
    void anUnreadableFileIsAUsageError() throws Exception {
        Path locked = Files.writeString(tmp.resolve("locked.json"), "{}");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        Assumptions.assumeFalse(Files.isReadable(locked), "root reads a file without permissions");
        CliRun r = run("import", "--output-dir", tmp.resolve("out").toString(), locked.toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream import: " + locked
                + ": cannot be read (permission denied)");
    }

    @Test
    @Timeout(30)
    void reportAndCompareSayAMissingPathIsNoFileInsteadOfLookingItUpAsARunId() {
        Path missing = tmp.resolve("missing.json");
        // port 1: nothing answers, so looking the argument up on Kafka would end differently (exit 1)
        CliRun r = run("report", missing.toString(), "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "mock://mif");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream report: " + missing
                + ": no such file (a run id has no '/')");
        r = run("compare", seed().toString(), missing.toString());
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream compare: " + missing
                + ": no such file (a run id has no '/')");
    }
}

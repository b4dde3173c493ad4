package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --output} is checked by trying, before any load is sent (issue 11, item 7). */
class OutputPathTest {
    @Test
    void aDirectoryThatAcceptsNoFilesIsRejectedUpFront() {
        // /proc passes the permission check (Files.isWritable, as root) but no file can be created in it:
        // the run used to go ahead and fail only when the report arrived
        assertEquals("--output: cannot create a file in /proc (the directory accepts no new files)",
                OutputPath.check("/proc/capstream-report.json"));
    }

    @Test
    void aDeviceOrOtherNonRegularFileIsNotReplaced() {
        // the atomic write renames a temporary file over the target: /dev/null would be replaced
        assertEquals("--output: /dev/null is not a regular file", OutputPath.check("/dev/null"));
    }

    @Test
    void theCheckLeavesNothingBehind(@TempDir Path tmp) throws Exception {
        assertNull(OutputPath.check(tmp.resolve("r.json").toString()));
        Files.writeString(tmp.resolve("existing.json"), "{}");
        assertNull(OutputPath.check(tmp.resolve("existing.json").toString()), "an existing report is replaced");
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(1, s.count(), "only the file written by this test");
        }
    }

    /** Issue 33 (fresh-user pass): {@code --output nodir/r.json} creates the directory, as {@code --html} does. */
    @Test
    void aMissingDirectoryIsCreatedAsForHtmlAndCsv(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("nodir/deeper/r.json");
        assertThat(OutputPath.check(file.toString())).as("the check of %s", file).isNull();
        RunViews.writeFile(file, "{}");
        assertThat(Files.readString(file)).as("the written report").isEqualTo("{}");
        Files.writeString(tmp.resolve("plain"), "x");
        assertThat(OutputPath.check(tmp.resolve("plain/r.json").toString())).as("under a regular file")
                .startsWith("--output: cannot create ");
    }

    /**
     * Two runs started in the same second get the same derived run id (spec 9.2); each wrote
     * capstream-report-&lt;id&gt;.json and the second replaced the first's report (a fresh user lost a run, both
     * exited 0; with resolve() both got the same path).
     */
    @Test
    void twoRunsWithOneIdClaimTwoFilesAndAnEarlierRunsFileIsWrittenOver(@TempDir Path dir) throws Exception {
        java.time.Instant start = java.time.Instant.now().minusSeconds(5);
        Path a = OutputPath.claim(null, "benchmark-20261206T185930Z", start, dir);
        Path b = OutputPath.claim(null, "benchmark-20261206T185930Z", start, dir);
        Path c = OutputPath.claim(null, "benchmark-20261206T185930Z", start, dir);
        assertThat(java.util.List.of(a, b, c)).as("files claimed by three runs with one id")
                .containsExactly(dir.resolve("capstream-report-benchmark-20261206T185930Z.json"),
                        dir.resolve("capstream-report-benchmark-20261206T185930Z-2.json"),
                        dir.resolve("capstream-report-benchmark-20261206T185930Z-3.json"));
        assertThat(Files.exists(b)).as("the claim creates the file").isTrue();
        Files.setLastModifiedTime(a, java.nio.file.attribute.FileTime.from(start.minusSeconds(60)));
        assertThat(OutputPath.claim(null, "benchmark-20261206T185930Z", start, dir))
                .as("a file of the default name from before this process started (an earlier run with that --run-id)")
                .isEqualTo(a);
        assertThat(OutputPath.claim("out/x.json", "benchmark-20261206T185930Z", start, dir)).as("--output")
                .isEqualTo(Path.of("out/x.json"));
        assertThat(Files.exists(Path.of("out/x.json"))).as("--output is not created by the claim").isFalse();
    }
}

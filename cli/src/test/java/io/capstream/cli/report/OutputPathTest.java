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
}

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

/** Bad conversation options of {@code run} (issue 29) found by a fresh user: one usage-error line, nothing sent. */
class RunConversationUsageTest {
    private CountingTarget target;

    @TempDir
    Path dir;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    /** Before: a blank --session-header ran without any header, and the run recorded none. */
    @Test
    @Timeout(20)
    void aBlankSessionHeaderIsAUsageError() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--turns", "2", "--session-header", " ");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly(
                "capstream run: --session-header needs a header name, e.g. X-Session-Id, got ' '");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    /** Before: Jackson's own text, with "(start marker at [Source: REDACTED (`StreamReadFeature...` disabled)...)". */
    @Test
    @Timeout(20)
    void aToolsFileThatIsNotJsonIsOneReadableLine() throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.json"), "[{\"type\":\"function\",\n");
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--tools", tools.toString());
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly("capstream run: --tools " + tools
                + " is not valid JSON at line 2, column 1: Unexpected end-of-input within/between Object entries");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }
}

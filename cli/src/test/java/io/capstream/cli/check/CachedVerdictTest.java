package io.capstream.cli.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.workload.ThinkingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint check's verdict line, as a run and each step of a sweep print it. */
class CachedVerdictTest {
    private static final String URL = "http://127.0.0.1:18931/v1";
    /** A run with the default request options. */
    private static final RequestShape RUN = RequestShape.DEFAULTS;

    @TempDir
    Path dir;

    /**
     * Fresh-user pass 2: a sweep against llama-server printed the verdict again before step 4 ("7 min ago" at the
     * start, "8 min ago" before step 4), because each step filtered the line by its text and the age had changed.
     * The old filter (by text) printed it twice here; {@code lineOnce} prints it once per target.
     */
    @Test
    void aSweepPrintsTheVerdictOncePerTargetWhateverItsAge() {
        CheckCache cache = new CheckCache(dir);
        Instant checked = Instant.parse("2026-12-06T01:45:00Z");
        cache.put(new CheckReport(URL, "random-llama-20m", "chat", List.of(), true, null),
                "measurable: streams sse", checked);
        Instant step1 = checked.plus(Duration.ofMinutes(7));
        Instant step4 = checked.plus(Duration.ofMinutes(8));
        Optional<String> atStep1 = CachedVerdict.line(URL, "random-llama-20m", "chat", RUN, cache, step1);
        Optional<String> atStep4 = CachedVerdict.line(URL, "random-llama-20m", "chat", RUN, cache, step4);
        assertThat(atStep4).as("the line's text one minute later (was %s), so filtering by text prints it again",
                atStep1).isNotEqualTo(atStep1);

        Set<String> shown = new HashSet<>();
        assertThat(CachedVerdict.lineOnce(URL, "random-llama-20m", "chat", RUN, cache, step1, shown)).as("step 1")
                .contains("endpoint check (capstream check, 7 min ago): measurable: streams sse");
        assertThat(CachedVerdict.lineOnce(URL + "/", "random-llama-20m", "chat", RUN, cache, step4, shown))
                .as("step 4 of the same sweep (shown so far: %s)", shown).isEmpty();
        assertThat(CachedVerdict.lineOnce(URL, "other-model", "chat", RUN, cache, step4, shown)).as("another model")
                .get().asString().startsWith("endpoint check: none in the last 24 h");
        assertThat(CachedVerdict.lineOnce(null, "capstream-sim", "chat", RUN, cache, step4, shown))
                .as("the built-in engine").isEmpty();
    }

    /**
     * Fresh-user pass 3: {@code run --no-thinking} printed the cached verdict "...; implies --no-thinking" although the
     * run had it. The run's line lists only the implied options it lacks (none left: no "; implies"); the check's own
     * verdict line, cached as is, keeps them all.
     */
    @Test
    void theRunsLineListsOnlyTheImpliedOptionsTheRunLacks() {
        CheckCache cache = new CheckCache(dir);
        Instant checked = Instant.parse("2026-12-06T01:45:00Z");
        String verdict = "measurable: streams sse, role chunk first yes, usage when asked yes;"
                + " implies --endpoint completions --max-model-len 4096 --no-thinking --prompt-salt run";
        cache.put(new CheckReport(URL, "m", "completions", List.of(), true, null), verdict, checked);
        Instant now = checked.plus(Duration.ofMinutes(3));
        RequestShape noThinking = new RequestShape(8000, 0, 64, 0, 1024, null, true, null);
        RequestShape disabledWindowSalt = new RequestShape(8000, 0, 64, 4096, 1024, ThinkingMode.DISABLED, false, null,
                null, null, null, null, null, "s-1");

        assertThat(CachedVerdict.line(URL, "m", "completions", RUN, cache, now)).as("a run with the defaults")
                .get().asString().endsWith("; implies --max-model-len 4096 --no-thinking --prompt-salt run");
        assertThat(CachedVerdict.line(URL, "m", "completions", noThinking, cache, now)).as("a run with --no-thinking")
                .get().asString().endsWith("usage when asked yes; implies --max-model-len 4096 --prompt-salt run")
                .doesNotContain("--no-thinking");
        assertThat(CachedVerdict.line(URL, "m", "completions", disabledWindowSalt, cache, now))
                .as("a run with --thinking-mode disabled, --max-model-len and a prompt salt").get().asString()
                .endsWith("measurable: streams sse, role chunk first yes, usage when asked yes")
                .doesNotContain("implies");
        assertThat(CachedVerdict.withoutGiven("measurable: streams sse", noThinking)).as("a verdict implying nothing")
                .isEqualTo("measurable: streams sse");
    }
}

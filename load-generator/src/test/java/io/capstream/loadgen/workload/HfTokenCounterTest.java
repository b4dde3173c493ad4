package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HfTokenCounterTest {
    @Test
    void countsTokensWithoutSpecialTokens() {
        try (HfTokenCounter t = HfTokenCounter.open(DatasetReaderTest.DIR.resolve("wordlevel-tokenizer.json"))) {
            assertEquals("wordlevel-tokenizer.json", t.name());
            assertEquals(3, t.count("hello world the"));
            // unknown words are [UNK] tokens; the Whitespace pre-tokenizer splits punctuation off
            assertEquals(6, t.count("hello world the foo bar."));
            assertEquals(0, t.count(""));
            // no truncation (DJL's default is 512 tokens)
            assertEquals(4000, t.count("hello world ".repeat(2000)));
        }
    }

    @Test
    void anUnusableFileIsAOneLineError() {
        assertEquals("--tokenizer: no readable file nowhere.json",
                assertThrows(IllegalArgumentException.class, () -> HfTokenCounter.open(Path.of("nowhere.json")))
                        .getMessage());
        String m = assertThrows(IllegalArgumentException.class,
                () -> HfTokenCounter.open(DatasetReaderTest.DIR.resolve("chat.jsonl"))).getMessage();
        assertThat(m).startsWith("--tokenizer " + DatasetReaderTest.DIR.resolve("chat.jsonl")
                + ": cannot load the tokenizer (");
        assertEquals(1, m.lines().count());
    }

    @Test
    void theEstimateIsThreeCharactersPerToken() {
        assertEquals(0, TokenCounter.ESTIMATE.count(""));
        assertEquals(1, TokenCounter.ESTIMATE.count("abc"));
        assertEquals(2, TokenCounter.ESTIMATE.count("abcd"));
        assertEquals("estimate", TokenCounter.ESTIMATE.name());
    }
}

package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetReaderTest {
    static final Path DIR = Path.of("src/test/resources/datasets");

    private static String error(String file) {
        return assertThrows(IllegalArgumentException.class,
                () -> DatasetReader.read(DIR.resolve(file), 100, TokenCounter.ESTIMATE)).getMessage();
    }

    @Test
    void jsonlEntriesKeepTheirMessagesAndMaxTokensAndCountByTheEstimate() {
        Dataset d = DatasetReader.read(DIR.resolve("chat.jsonl"), 100, TokenCounter.ESTIMATE);
        assertEquals("chat.jsonl", d.name());
        assertEquals("jsonl", d.format());
        assertEquals("estimate", d.tokenizer());
        assertEquals("e0c910b99c7c9c712dcc1f719628561193c37adfad6f99a3600be52611556621", d.sha256());
        assertEquals(List.of(
                new DatasetEntry("[{\"role\":\"system\",\"content\":\"You are terse.\"},"
                        + "{\"role\":\"user\",\"content\":\"Name three prime numbers.\"}]", 5 + 9, 12),
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"hello world hello world\"}]", 8, null),
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"Summarise the plot of Hamlet in one line.\"}]", 14, 40)),
                d.entries());
        // request i sends entry i mod N
        assertEquals(d.entries().get(1), d.entry(4));
    }

    @Test
    void shareGptUsesTheFirstHumanTurnAndTheReplyAfterItAndSkipsConversationsWithoutOne() {
        Dataset d = DatasetReader.read(DIR.resolve("sharegpt.json"), 100, TokenCounter.ESTIMATE);
        assertEquals("sharegpt", d.format());
        assertEquals(List.of(
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"hello world\"}]", 4, 7),
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"the world\"}]", 3, 2)), d.entries());
    }

    @Test
    void onlyTheFirstLimitEntriesAreKept() {
        Dataset d = DatasetReader.read(DIR.resolve("chat.jsonl"), 2, TokenCounter.ESTIMATE);
        assertEquals(2, d.size());
        assertEquals(8, d.entry(1).promptTokens());
    }

    @Test
    void problemsAreOneLineUsageErrors() {
        assertEquals("--dataset: no such file: " + DIR.resolve("missing.jsonl"), error("missing.jsonl"));
        String bad = error("bad-json.jsonl");
        assertEquals(true, bad.startsWith("--dataset bad-json.jsonl: line 3: not valid JSON ("), bad);
        assertEquals(1, bad.lines().count());
        assertEquals("--dataset no-prompt.jsonl: line 2: an entry needs messages (an array of chat messages),"
                + " prompt (a string) or turns (an array of turns)", error("no-prompt.jsonl"));
        assertEquals("--dataset empty.jsonl: no entries", error("empty.jsonl"));
    }

    @Test
    void aHugeStringOrDeepNestingIsAUsageErrorNamingTheLine(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        // issue 27.6: both ended in 'Cannot invoke "JsonLocation.getLineNr()"' and exit 1
        Path deep = tmp.resolve("deep.jsonl");
        java.nio.file.Files.writeString(deep, "{\"prompt\": \"a\"}\n{\"messages\": " + "[".repeat(100_000)
                + "]".repeat(100_000) + "}\n");
        String e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> DatasetReader.read(deep, 10, TokenCounter.ESTIMATE)).getMessage();
        assertEquals("--dataset deep.jsonl: line 2: nested deeper than 1,000 levels (the JSON reader's limit)", e);
        Path big = tmp.resolve("big.jsonl");
        java.nio.file.Files.writeString(big, "{\"prompt\": \"" + "x".repeat(20_000_001) + "\"}\n");
        String b = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> DatasetReader.read(big, 10, TokenCounter.ESTIMATE)).getMessage();
        assertEquals("--dataset big.jsonl: line 1: a string value longer than 20,000,000 characters (the JSON reader's"
                + " limit)", b);
        assertEquals("--trace: " + tmp + " is a directory, not a file", DatasetReader.fileProblem("--trace", tmp));
    }

    @Test
    void aTokenizerCountsThePromptAndReplyTokens() {
        try (HfTokenCounter t = HfTokenCounter.open(DIR.resolve("wordlevel-tokenizer.json"))) {
            Dataset d = DatasetReader.read(DIR.resolve("sharegpt.json"), 100, t);
            assertEquals("wordlevel-tokenizer.json", d.tokenizer());
            assertEquals(2, d.entry(0).promptTokens());
            assertEquals(4, d.entry(0).outputTokens());
            assertEquals(2, d.entry(1).promptTokens());
            assertEquals(1, d.entry(1).outputTokens());
            Dataset c = DatasetReader.read(DIR.resolve("chat.jsonl"), 100, t);
            assertEquals(4 + 5, c.entry(0).promptTokens());
            assertNull(c.entry(1).outputTokens());
        }
    }

    @Test
    void aMessageWithoutRoleOrContentIsAUsageErrorNamingItsLine(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        // before the fix both were sent as given: llama-server answered the first with HTTP 400 "All non-assistant
        // messages must contain 'content'", one failed request per such entry instead of a usage error
        Path file = tmp.resolve("m.jsonl");
        java.nio.file.Files.writeString(file, "{\"prompt\": \"a\"}\n{\"messages\": [{\"role\": \"user\"}]}\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DatasetReader.read(file, 100, TokenCounter.ESTIMATE))
                .as("a user message without content").isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset m.jsonl: line 2: message 1 (role user) has no content (only an assistant"
                        + " message, e.g. one with tool_calls, may go without)");
        java.nio.file.Files.writeString(file, "{\"messages\": [{\"role\": \"system\", \"content\": \"s\"},"
                + " {\"content\": \"hi\"}]}\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DatasetReader.read(file, 100, TokenCounter.ESTIMATE))
                .as("a message without role").isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset m.jsonl: line 1: message 2 has no role (each message must be an object with"
                        + " role and content)");
        java.nio.file.Files.writeString(file, "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"},"
                + " {\"role\": \"assistant\", \"tool_calls\": []}, {\"role\": \"user\", \"content\": \"and?\"}]}\n");
        org.assertj.core.api.Assertions.assertThat(DatasetReader.read(file, 100, TokenCounter.ESTIMATE).size())
                .as("an assistant message without content is sent as given").isEqualTo(1);
    }
}

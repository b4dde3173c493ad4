package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.workload.DatasetEntry.Message;
import io.capstream.loadgen.workload.DatasetEntry.Turn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-turn {@code --dataset} files (issue 29): ShareGPT with all turns, JSONL {@code turns}, bad turns. */
class DatasetMultiTurnTest {
    private static final Path DIR = DatasetReaderTest.DIR;

    private static Dataset read(String file) {
        return DatasetReader.read(DIR.resolve(file), 100, TokenCounter.ESTIMATE);
    }

    private static Turn turn(int tokens, Integer maxTokens, Message... messages) {
        return new Turn(List.of(messages), tokens, maxTokens);
    }

    private static Message user(String text) {
        return new Message("user", text);
    }

    @Test
    void shareGptSendsEveryHumanTurnInOrderWithTheNextGptTurnAsItsMaxTokens() {
        Dataset d = read("sharegpt-multi.json");
        assertThat(d.multiTurn()).as("a conversation has 3 human turns").isTrue();
        assertThat(d.maxTurns()).isEqualTo(3);
        assertThat(d.entries()).as("entries (m4 has no human turn: skipped)").hasSize(3);
        // 3 characters per token: "Be brief." 3, "What is a cat?" 5, "A small animal." 5, "And a dog?" 4,
        // "A larger one, often." 7, "Thanks." 3; the gpt turn before the first human turn is not sent
        assertThat(d.entry(0).turns()).as("m1: system turn starts turn 1, the last human turn has no reply")
                .containsExactly(
                        turn(3 + 5, 5, new Message("system", "Be brief."), user("What is a cat?")),
                        turn(4, 7, user("And a dog?")),
                        turn(3, null, user("Thanks.")));
        assertThat(d.entry(1).turns()).as("m2: one turn").containsExactly(turn(4, 7, user("hello world")));
        assertThat(d.entry(2).turns()).as("m3: two human turns in a row are two turns, the first without a reply")
                .containsExactly(turn(1, null, user("one")), turn(1, 2, user("two")));
        assertThat(d.entry(0).contextTokens(3, 64)).as("turn 3's context: the messages and the answers before it")
                .isEqualTo(8 + 5 + 4 + 7 + 3);
        assertThat(d.entry(2).contextTokens(2, 64)).as("an answer without the dataset's length counts max_tokens")
                .isEqualTo(1 + 64 + 1);
    }

    @Test
    void aMultiTurnEntryKeepsItsFirstRequestAsASingleTurnRunSendsIt() {
        // what a single-turn run sent before issue 29: the first human turn alone, the gpt turn after it
        Dataset d = read("sharegpt-multi.json");
        assertThat(List.of(d.entry(0).messagesJson(), d.entry(0).promptTokens(), d.entry(0).outputTokens()))
                .isEqualTo(List.of("[{\"role\":\"user\",\"content\":\"What is a cat?\"}]", 5, 5));
        assertThat(List.of(d.entry(2).messagesJson(), d.entry(2).promptTokens(), d.entry(2).outputTokens()))
                .isEqualTo(List.of("[{\"role\":\"user\",\"content\":\"one\"}]", 1, 2));
    }

    @Test
    void firstTurnsIsTheDatasetASingleTurnRunSends() {
        Dataset d = read("sharegpt-multi.json").firstTurns();
        assertThat(d.multiTurn()).isFalse();
        assertThat(d.entries()).containsExactly(
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"What is a cat?\"}]", 5, 5),
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"hello world\"}]", 4, 7),
                new DatasetEntry("[{\"role\":\"user\",\"content\":\"one\"}]", 1, 2));
        Dataset single = read("chat.jsonl");
        assertThat(single.firstTurns()).isSameAs(single);
    }

    @Test
    void jsonlTurnsArePromptsOrUserMessagesWithTheirOwnOrTheEntrysMaxTokens() {
        Dataset d = read("turns.jsonl");
        assertThat(d.format()).isEqualTo("jsonl");
        assertThat(d.multiTurn()).isTrue();
        assertThat(d.entry(0).turns()).as("system, then a prompt turn and a messages turn (text parts joined)")
                .containsExactly(
                        turn(3 + 5, 9, new Message("system", "Be brief."), user("What is a cat?")),
                        turn(4, 5, user("And a dog?")));
        assertThat(d.entry(0).messagesJson())
                .isEqualTo("[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":"
                        + "\"What is a cat?\"}]");
        assertThat(d.entry(1).turns()).as("a prompt entry is a conversation of one turn")
                .containsExactly(turn(4, 3, user("hello world")));
        assertThat(d.entry(2).turns()).as("a messages entry is a conversation of one turn")
                .containsExactly(turn(5 + 9, null, new Message("system", "You are terse."),
                        user("Name three prime numbers.")));
        assertThat(d.entry(2).messagesJson()).as("still sent verbatim by a single-turn run")
                .isEqualTo("[{\"role\":\"system\",\"content\":\"You are terse.\"},{\"role\":\"user\",\"content\":"
                        + "\"Name three prime numbers.\"}]");
    }

    @Test
    void singleTurnDatasetsHaveNoTurnsAndReadAsBefore() {
        for (String file : List.of("sharegpt.json", "chat.jsonl")) {
            Dataset d = read(file);
            assertThat(d.multiTurn()).as(file).isFalse();
            assertThat(d.maxTurns()).as(file).isEqualTo(1);
            assertThat(d.entries()).as(file).allSatisfy(e -> assertThat(e.turns()).isEmpty());
        }
    }

    @Test
    void aTurnWithoutContentOrWithTheModelsMessagesIsAOneLineUsageError() {
        assertThatThrownBy(() -> read("sharegpt-blank-turn.json")).hasMessage("--dataset sharegpt-blank-turn.json:"
                + " entry 0 (line 2): human turn 2 has no content (its value must be a non-blank string)");
        assertThatThrownBy(() -> read("turns-no-content.jsonl")).hasMessage("--dataset turns-no-content.jsonl:"
                + " line 1: turn 2 has no content: it needs prompt (a non-blank string) or messages (an array of user"
                + " messages)");
        assertThatThrownBy(() -> read("turns-assistant.jsonl")).hasMessage("--dataset turns-assistant.jsonl: line 1:"
                + " turn 1: messages may only be user and system messages (the answers are the model's), got role"
                + " assistant");
        assertThatThrownBy(() -> read("multi-with-fewshot.jsonl")).hasMessage("--dataset multi-with-fewshot.jsonl:"
                + " line 1: messages may only be user and system messages (the answers are the model's), got role"
                + " assistant (in a dataset with multi-turn conversations every entry is one)");
    }

    @Test
    void moreBadTurns(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("t.jsonl");
        Files.writeString(f, "{\"turns\": []}\n");
        assertThatThrownBy(() -> DatasetReader.read(f, 10, TokenCounter.ESTIMATE)).hasMessageStartingWith(
                "--dataset t.jsonl: line 1: turns must be a non-empty array of turns");
        Files.writeString(f, "{\"turns\": [{\"prompt\": \"a\"}, {\"messages\": [{\"role\": \"system\", \"content\":"
                + " \"late\"}, {\"role\": \"user\", \"content\": \"b\"}]}]}\n");
        assertThatThrownBy(() -> DatasetReader.read(f, 10, TokenCounter.ESTIMATE)).hasMessage(
                "--dataset t.jsonl: line 1: turn 2: a system message may only start the first turn");
        Files.writeString(f, "{\"turns\": [{\"prompt\": \"\"}]}\n");
        assertThatThrownBy(() -> DatasetReader.read(f, 10, TokenCounter.ESTIMATE)).hasMessageStartingWith(
                "--dataset t.jsonl: line 1: turn 1 has no content");
        Files.writeString(f, "{\"turns\": [{\"prompt\": \"a\", \"max_tokens\": 0}]}\n");
        assertThatThrownBy(() -> DatasetReader.read(f, 10, TokenCounter.ESTIMATE)).hasMessage(
                "--dataset t.jsonl: line 1: turn 1: max_tokens must be an integer >= 1, got 0");
        // the few-shot line alone is a single-turn dataset, sent as before
        Files.writeString(f, Files.readAllLines(DIR.resolve("multi-with-fewshot.jsonl")).get(0) + "\n");
        assertThat(DatasetReader.read(f, 10, TokenCounter.ESTIMATE).multiTurn()).isFalse();
    }

    @Test
    void aMultiTurnConversationAfterTheKeptEntriesStillMakesTheDatasetMultiTurn(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("late.jsonl");
        Files.writeString(f, "{\"prompt\": \"abc\"}\n{\"turns\": [{\"prompt\": \"b\"}, {\"prompt\": \"c\"}]}\n");
        Dataset d = DatasetReader.read(f, 1, TokenCounter.ESTIMATE);
        assertThat(d.size()).isEqualTo(1);
        assertThat(d.multiTurn()).as("the file has a conversation of 2 turns").isTrue();
        assertThat(d.entry(0).turns()).containsExactly(turn(1, null, user("abc")));
    }
}

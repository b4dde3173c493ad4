package io.capstream.loadgen.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.workload.Dataset;
import io.capstream.loadgen.workload.DatasetReader;
import io.capstream.loadgen.workload.TokenCounter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A multi-turn {@code --dataset} as the run's conversations (issue 29). */
class DatasetConversationsTest {
    private static final Path DIR = Path.of("src/test/resources/datasets");
    /** Conversations of 3, 1 and 2 turns. */
    private static final Dataset MULTI = DatasetReader.read(DIR.resolve("sharegpt-multi.json"), 100,
            TokenCounter.ESTIMATE);

    @Test
    void requestsCountTurnsAndTheLastConversationIsShortened() {
        DatasetConversations s = DatasetConversations.of(MULTI, 8);
        // entries 0, 1, 2, then entry 0 again with 2 of its 3 turns
        assertThat(s.conversations()).isEqualTo(4);
        assertThat(IntStream.range(0, 4).map(s::turns).boxed().toList()).as("turns per conversation")
                .isEqualTo(List.of(3, 1, 2, 2));
        assertThat(IntStream.range(0, 4).map(s::firstRequest).boxed().toList()).as("first requests")
                .isEqualTo(List.of(0, 3, 4, 6));
        assertThat(s.requests()).isEqualTo(8);
        assertThat(IntStream.range(0, 8).map(s::conversationOf).boxed().toList()).as("each request's conversation")
                .isEqualTo(List.of(0, 0, 0, 1, 2, 2, 3, 3));
        assertThat(s.entry(3)).isSameAs(MULTI.entry(0));
    }

    @Test
    void exactFitsAndOneRequest() {
        assertThat(DatasetConversations.of(MULTI, 6).conversations()).as("3 + 1 + 2 turns").isEqualTo(3);
        DatasetConversations one = DatasetConversations.of(MULTI, 1);
        assertThat(List.of(one.conversations(), one.turns(0))).isEqualTo(List.of(1, 1));
    }

    @Test
    void theRequestsOfConversationsStartedAreTheirTurns() {
        assertThat(List.of(DatasetConversations.requestsOf(MULTI, 0, 100), DatasetConversations.requestsOf(MULTI, 4, 100),
                DatasetConversations.requestsOf(MULTI, 4, 7))).as("0, 3+1+2+3, capped at 7").isEqualTo(List.of(0, 9, 7));
    }

    @Test
    void eachTurnsUserInputIsTheDatasetsTurn() {
        DatasetConversations s = DatasetConversations.of(MULTI, 8);
        assertThat(s.userTurn(0, 1)).as("turn 1 starts with the system turn").isEqualTo(new UserTurn(
                List.of(new InputMessage("system", "Be brief."), InputMessage.user("What is a cat?")), 3 + 5, 5));
        assertThat(s.userTurn(0, 3)).as("the last human turn has no reply: the run's max_tokens")
                .isEqualTo(new UserTurn(List.of(InputMessage.user("Thanks.")), 3, null));
        assertThat(s.userTurn(3, 2)).isEqualTo(new UserTurn(List.of(InputMessage.user("And a dog?")), 4, 7));
        assertThat(s.plannedContext(0, 3, 64)).isEqualTo(8 + 5 + 4 + 7 + 3);
        assertThatThrownBy(() -> s.userTurn(3, 3)).as("conversation 3 was shortened to 2 turns")
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> s.turns(4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aSingleTurnDatasetIsNotAConversationScript() {
        Dataset single = DatasetReader.read(DIR.resolve("chat.jsonl"), 100, TokenCounter.ESTIMATE);
        assertThatThrownBy(() -> DatasetConversations.of(single, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset chat.jsonl has no multi-turn conversation");
        assertThatThrownBy(() -> DatasetConversations.of(MULTI, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.conversation.DatasetConversations;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.RequestPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The plan of a multi-turn {@code --dataset} (issue 29): per-turn lengths and the prompt cap per conversation. */
class DatasetTurnsPlanTest {
    private static final Path MULTI = Path.of("src/test/resources/datasets/sharegpt-multi.json");

    private static RunConfig config(int requests) {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "some-model"))
                .withLoad(l -> l.withRequests(requests))
                .withRequest(r -> r.withDataset(MULTI).withMargin(0));
    }

    @Test
    void eachTurnPlansItsConversationsMessagesAndTheAnswersBeforeIt() throws Exception {
        RunPlan p = RunPlanner.complete(config(8), 32_768, ApiKey.none()).get();
        // conversations of 3, 1, 2 and (shortened) 2 turns; new tokens per turn 8,4,3 | 4 | 1,1 | 8,4;
        // answers at the dataset's lengths 5,7 | - | --max-tokens 64 | 5
        assertThat(p.contextPlan().toArray()).as("planned context per request")
                .containsExactly(8, 8 + 5 + 4, 8 + 5 + 4 + 7 + 3, 4, 1, 1 + 64 + 1, 8, 8 + 5 + 4);
        RequestPlan r = p.requestPlan();
        assertThat(IntStream.range(0, 8).map(i -> r.maxTokens(i, 64)).boxed().toList()).as("max_tokens per request")
                .isEqualTo(List.of(5, 7, 64, 7, 64, 2, 5, 7));
    }

    @Test
    void aConversationThatOutgrowsTheWindowIsAUsageErrorBeforeAnythingStarts() {
        // cap = window - largest max_tokens (64) - margin (0) = 26: conversation 0 reaches 27, conversation 2 66
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> RunPlanner.complete(config(8), 64 + 26, ApiKey.none()).get());
        assertThat(((UsageException) e.getCause()).problems()).containsExactly("--dataset sharegpt-multi.json:"
                + " 2 conversation(s) outgrow the prompt cap of 26 tokens (window - largest max_tokens - --margin;"
                + " a turn's prompt holds its conversation's messages so far and the answers before it at their"
                + " max_tokens); first: conversation 0 (entry 0) reaches 27 prompt tokens at turn 3");
    }

    @Test
    void theShortenedLastConversationIsCheckedOnlyForTheTurnsItSends() throws Exception {
        // 2 requests: conversation 0's first two turns (max_tokens 5 and 7), 17 tokens, within a cap of 17
        RunConfig two = config(2).withRequest(r -> r.withMaxTokens(8));
        RunPlan p = RunPlanner.complete(two, 7 + 17, ApiKey.none()).get();
        assertThat(p.contextPlan().toArray()).containsExactly(8, 17);
        assertThatThrownBy(() -> RunPlanner.complete(two, 7 + 16, ApiKey.none()).get())
                .hasMessageContaining("1 conversation(s) outgrow the prompt cap of 16 tokens");
    }

    @Test
    void turnsOneSendsEachConversationsFirstTurnAloneAndOtherTurnsAreAUsageError() throws Exception {
        RunConfig one = config(8).withConversation(c -> c.withTurns(new LengthDistribution(1, 0)));
        RunPlan p = RunPlanner.complete(one, 32_768, ApiKey.none()).get();
        // the single-turn run: request i sends entry i mod 3's first human turn (5, 4, 1 tokens), its reply's length
        assertThat(p.contextPlan().toArray()).containsExactly(5, 4, 1, 5, 4, 1, 5, 4);
        assertThat(p.requestPlan().dataset().multiTurn()).isFalse();
        assertThat(IntStream.range(0, 8).map(i -> p.requestPlan().maxTokens(i, 64)).boxed().toList())
                .isEqualTo(List.of(5, 7, 2, 5, 7, 2, 5, 7));
        RunConfig three = config(8).withConversation(c -> c.withTurns(new LengthDistribution(3, 1)));
        assertThatThrownBy(() -> RunPlanner.complete(three, 32_768, ApiKey.none()).get())
                .hasCauseInstanceOf(UsageException.class)
                .hasMessageEndingWith("--turns cannot be combined with --dataset sharegpt-multi.json: its multi-turn"
                        + " conversations set the turns (give no --turns, or --turns 1 to send each conversation's"
                        + " first turn alone)");
    }

    @Test
    void theRunPlaysTheDatasetsConversations() throws Exception {
        RunPlan p = RunPlanner.complete(config(8), 32_768, ApiKey.none()).get();
        assertThat(ConversationScripts.of(p)).as("a multi-turn dataset's script")
                .isInstanceOfSatisfying(DatasetConversations.class, s -> assertThat(
                        List.of(s.conversations(), s.requests())).isEqualTo(List.of(4, 8)));
    }

    @Test
    void anOpenLoopsDurationStartsConversationsAndCountsTheirTurns() throws Exception {
        RunConfig open = config(8).withLoad(l -> l.withArrival(io.capstream.loadgen.arrival.ArrivalMode.POISSON)
                .withRateRps(10.0).withDurationS(2.0));
        int started = RunPlanner.plannedRequests(open);
        RunPlan p = RunPlanner.complete(open, 32_768, ApiKey.none()).get();
        DatasetConversations s = (DatasetConversations) ConversationScripts.of(p);
        assertThat(s.conversations()).as("conversations = the arrivals within --duration (%d)", started)
                .isEqualTo(started);
        assertThat(p.requests()).as("requests = their turns (3, 1, 2, 3, ...)").isEqualTo(
                IntStream.range(0, started).map(c -> s.entry(c).turns().size()).sum());
    }
}

package io.capstream.loadgen.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.PromptBuilder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The synthetic conversations of {@code --turns}: --requests counts turns; turn 1 is the reference's prompt. */
class SyntheticConversationsTest {
    private static SyntheticConversations script(int requests, LengthDistribution turns, long seed) {
        return new SyntheticConversations(requests, turns, seed, new PromptBuilder(100), new PromptBuilder(0),
                i -> 200 + i, i -> -1);
    }

    private static int[] turns(SyntheticConversations s) {
        int[] t = new int[s.conversations()];
        for (int c = 0; c < t.length; c++) {
            t[c] = s.turns(c);
        }
        return t;
    }

    @Test
    void requestsCountTurnsAndTheLastConversationIsShortened() {
        SyntheticConversations s = script(10, new LengthDistribution(3, 0), 0);
        assertThat(turns(s)).as("turns of 10 requests at --turns 3").containsExactly(3, 3, 3, 1);
        assertThat(new int[] {s.firstRequest(0), s.firstRequest(1), s.firstRequest(3)}).as("first requests")
                .containsExactly(0, 3, 9);
    }

    @Test
    void drawsAreSeededRoundedAtLeastOneAndAddUpToTheRequests() {
        SyntheticConversations a = script(500, new LengthDistribution(3, 2), 7);
        SyntheticConversations b = script(500, new LengthDistribution(3, 2), 7);
        assertThat(turns(a)).as("the same seed, the same conversations").containsExactly(turns(b));
        assertThat(Arrays.stream(turns(a)).sum()).as("turns add up to --requests").isEqualTo(500);
        assertThat(Arrays.stream(turns(a)).min().getAsInt()).as("fewest turns").isEqualTo(1);
        assertThat(Arrays.stream(turns(a)).distinct().count()).as("distinct turn counts with a spread")
                .isGreaterThan(3);
        assertThat(turns(script(500, new LengthDistribution(3, 2), 8))).as("another seed").isNotEqualTo(turns(a));
        int c = a.conversations() - 1;
        assertThat(SyntheticConversations.requestsOf(c, new LengthDistribution(3, 2), 7, 100_000))
                .as("requestsOf: the turns of the first conversations").isEqualTo(a.firstRequest(c));
    }

    @Test
    void turnOneSendsTheSharedPrefixAndLaterTurnsAFreshPromptWithoutIt() throws Exception {
        SyntheticConversations s = script(6, new LengthDistribution(3, 0), 0);
        UserTurn first = s.userTurn(1, 1);
        UserTurn later = s.userTurn(1, 2);
        assertThat(first.messages().get(0).content()).as("turn 1: the reference's prompt of request 3")
                .isEqualTo(new PromptBuilder(100).prompt(3, 203));
        assertThat(later.messages().get(0).content()).as("turn 2: request 4's prompt without the shared prefix")
                .isEqualTo(new PromptBuilder(0).prompt(4, 204));
        assertThat(later.promptTokens()).as("turn 2's planned new context").isEqualTo(204);
        assertThat(later.maxTokens()).as("the run's max_tokens").isNull();
        assertThat(later.messages().get(0).role()).as("role").isEqualTo("user");
    }
}

package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ConversationEnd;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.SessionStats;
import io.capstream.schemas.avro.TurnStats;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code capstream.sessions} from synthetic events: 3 conversations planned with 3 turns each (9 requests). c0 and
 * c1 run all 3 turns, their turn 2 answers with a tool call; only c0's server reports cached tokens (turns 2 and 3);
 * c2's turn 2 fails and ends the conversation (1 unsent turn: request 8).
 */
class SessionsCalculatorTest {
    private static final long MS = 1_000_000L;
    private static final String RUN = "run-conv";

    /** A conversation turn that completed: start, TTFT and E2E in ms, prompt and cached tokens. */
    static RequestCompleted ok(int index, int conversation, int turn, long startMs, long ttftMs, long e2eMs,
                               long prompt, Long cached, boolean toolCall) {
        return Fixtures.ok(index, ttftMs, e2eMs, prompt, 8)
                .setStartNs(startMs * MS).setTtfoNs(ttftMs * MS)
                .setCachedTokens(cached)
                .setConversationId(RUN + "-c" + conversation).setTurn(turn)
                .setOutputKind(toolCall ? "tool_call" : "text").setToolCalls(toolCall ? 1 : 0)
                .build();
    }

    static List<RequestCompleted> completed() {
        return List.of(
                ok(0, 0, 1, 0, 100, 200, 100, null, false),
                ok(1, 0, 2, 300, 50, 150, 220, 100L, true),
                ok(2, 0, 3, 600, 60, 160, 350, 220L, false),
                ok(3, 1, 1, 0, 120, 220, 110, null, false),
                ok(4, 1, 2, 400, 70, 170, 230, null, true),
                ok(5, 1, 3, 800, 80, 180, 360, null, false),
                ok(6, 2, 1, 1000, 140, 240, 120, null, false));
    }

    static List<RequestFailed> failed() {
        return List.of(Fixtures.failed(7, "HTTP Error 500: Internal Server Error").setErrorType("HTTPError")
                .setStartNs(1300 * MS).setElapsedNs(30 * MS)
                .setConversationId(RUN + "-c2").setTurn(2)
                .setConversationEnd("the answer failed (HTTPError)").setUnsentTurns(1).build());
    }

    @Test
    void conversationsTurnsToolCallsAndEarlyEnds() {
        SessionStats s = SessionsCalculator.compute(completed(), failed());

        assertThat(s).as("sessions of a run with conversations").isNotNull();
        assertThat(s.getConversations()).as("conversations").isEqualTo(3);
        assertThat(s.getTurnsMean()).as("mean sent turns (8 requests / 3 conversations)").isEqualTo(8.0 / 3);
        assertThat(s.getTurnsMax()).as("most sent turns").isEqualTo(3);
        assertThat(s.getToolCalls()).as("answers that were tool calls").isEqualTo(2);
        assertThat(s.getEndedEarly()).as("conversations that ended early").isEqualTo(1);
        assertThat(s.getEndReasons()).as("end reasons")
                .extracting(ConversationEnd::getConversationId, ConversationEnd::getRequestIndex,
                        ConversationEnd::getTurn, ConversationEnd::getUnsentTurns, ConversationEnd::getReason)
                .containsExactly(tuple(RUN + "-c2", 7, 2, 1, "the answer failed (HTTPError)"));
    }

    @Test
    void conversationLatencyRunsFromTheFirstStartToTheLastEnd() {
        SessionStats s = SessionsCalculator.compute(completed(), failed());

        // c0: 0 -> 600 + 160 = 760 ms; c1: 0 -> 800 + 180 = 980 ms; c2: 1000 -> 1300 + 30 (the failure) = 330 ms
        assertThat(s.getConversationLatencyP50Ms()).as("nearest-rank p50 of [330, 760, 980]").isEqualTo(760.0);
        assertThat(s.getConversationLatencyP95Ms()).as("nearest-rank p95 of [330, 760, 980]").isEqualTo(980.0);
    }

    @Test
    void byTurnInTurnOrderWithCachedTokensOnlyWhereReported() {
        SessionStats s = SessionsCalculator.compute(completed(), failed());

        assertThat(s.getByTurn()).as("by_turn: turn, requests, ttft p50/p95, prompt p50, cached p50")
                .extracting(TurnStats::getTurn, TurnStats::getRequests, TurnStats::getTtftP50Ms,
                        TurnStats::getTtftP95Ms, TurnStats::getPromptTokensP50, TurnStats::getCachedPromptTokensP50)
                .containsExactly(
                        tuple(1, 3, 120.0, 140.0, 110.0, null),   // no server reported cached tokens on turn 1
                        tuple(2, 3, 50.0, 70.0, 220.0, 100.0),    // the failure counts as a request, not in TTFT
                        tuple(3, 2, 60.0, 80.0, 350.0, 220.0));   // only c0 reported cached tokens
    }

    @Test
    void perRequestConversationAndTurnByRequestIndex() {
        List<RequestCompleted> shuffled = new ArrayList<>(completed());
        java.util.Collections.reverse(shuffled);
        SessionStats s = SessionsCalculator.compute(shuffled, failed());

        assertThat(s.getPerRequest().getConversationIds()).as("conversation ids by first request")
                .containsExactly(RUN + "-c0", RUN + "-c1", RUN + "-c2");
        assertThat(s.getPerRequest().getRequestIndex()).as("request indices").containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(s.getPerRequest().getConversation()).as("conversation of each request")
                .containsExactly(0, 0, 0, 1, 1, 1, 2, 2);
        assertThat(s.getPerRequest().getTurn()).as("turn of each request").containsExactly(1, 2, 3, 1, 2, 3, 1, 2);
        assertThat(s.getPerRequest().getToolCalls()).as("tool calls of each request (null: failed)")
                .containsExactly(0, 1, 0, 0, 1, 0, 0, null);
    }

    @Test
    void singleTurnEventsHaveNoSessions() {
        assertThat(SessionsCalculator.compute(List.of(Fixtures.ok(0, 10, 20, 100, 8).build()),
                List.of(Fixtures.failed(1, "boom").build())))
                .as("sessions without any conversation_id").isNull();
    }

    @Test
    void reportCountsTheSentRequestsAndIsCompleteWithoutTheUnsentTurn() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData(RUN, Fixtures.started(9, 4096).build(),
                completed(), failed(), Fixtures.finished(2_000 * MS), null));

        assertThat(r.getProvenance().getMissingRequestIndices()).as("missing indices (8 was never sent)").isEmpty();
        assertThat(r.getProvenance().getComplete()).as("complete").isTrue();
        assertThat(r.getRequests()).as("requests = completed + failed (the unsent turn is not a request)")
                .isEqualTo(r.getCompleted() + r.getFailed()).isEqualTo(8);
        assertThat(r.getContextDistribution()).as("context_distribution sums to requests")
                .containsExactlyEntriesOf(java.util.Map.of("4096", 8));
        JsonNode sessions = ArtifactJson.parse(r.getArtifactJson()).path("capstream").path("sessions");
        assertThat(sessions.path("conversations").asInt()).as("artifact capstream.sessions.conversations")
                .isEqualTo(3);
        assertThat(sessions.path("by_turn").get(0).path("cached_prompt_tokens_p50").isNull())
                .as("turn 1's cached_prompt_tokens_p50 is written as null: %s", sessions.path("by_turn").get(0))
                .isTrue();
        assertThat(sessions.path("per_request").path("turn").size()).as("per-request turns").isEqualTo(8);
    }

    @Test
    void singleTurnArtifactHasNoSessionsKey() {
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-1", Fixtures.started(2, 4096).build(),
                List.of(Fixtures.ok(0, 10, 20, 100, 8).build(), Fixtures.ok(1, 12, 22, 100, 8).build()), List.of(),
                Fixtures.finished(1_000 * MS), null));

        assertThat(r.getSessions()).as("typed sessions of a single-turn run").isNull();
        assertThat(r.getArtifactJson()).as("single-turn artifact").doesNotContain("\"sessions\"");
    }
}

package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.ConversationEnd;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.SessionStats;
import io.capstream.schemas.avro.TurnStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console summary's conversations lines and by-turn table ({@code capstream.sessions}). */
class SessionsSummaryTest {
    static SessionStats sessions() {
        return SessionStats.newBuilder().setConversations(3).setTurnsMean(8.0 / 3).setTurnsMax(3).setToolCalls(2)
                .setEndedEarly(1)
                .setEndReasons(List.of(ConversationEnd.newBuilder().setConversationId("r-c2").setRequestIndex(7)
                        .setTurn(2).setUnsentTurns(1).setReason("the answer failed (HTTPError)").build()))
                .setConversationLatencyP50Ms(760.0).setConversationLatencyP95Ms(980.0)
                .setByTurn(List.of(new TurnStats(1, 3, 120.0, 140.0, 110.0, null),
                        new TurnStats(2, 3, 50.0, 70.0, 220.0, 100.0),
                        new TurnStats(3, 2, 60.0, 80.0, 350.0, 220.0)))
                .build();
    }

    @Test
    void conversationsLatencyAndOneLinePerTurn() {
        assertThat(SessionsSummary.render(sessions())).as("sessions summary").isEqualTo(String.join("\n",
                "conversations     3 (turns mean 2.7, max 3); tool calls 2; ended early 1 (first: r-c2 after turn 2:"
                        + " the answer failed (HTTPError))",
                "conversation      latency p50 760.0 ms, p95 980.0 ms (first request's start to last reply's end)",
                "turn       requests   TTFT p50   TTFT p95  prompt p50  cached p50",
                "1                 3      120.0      140.0         110           -",
                "2                 3       50.0       70.0         220         100",
                "3                 2       60.0       80.0         350         220",
                ""));
    }

    @Test
    void theSummaryTableShowsThemOnlyForARunWithConversations() {
        io.capstream.schemas.avro.BenchmarkReport single = SummaryTableTest.report(List.of(), new Metrics());
        assertThat(SummaryTable.render(single, null)).as("single-turn summary").doesNotContain("conversation",
                "TTFT p50   TTFT p95");
        single.setSessions(sessions());
        assertThat(SummaryTable.render(single, null)).as("summary of a run with conversations")
                .contains("conversations     3 (turns mean 2.7", "3                 2       60.0       80.0");
    }
}

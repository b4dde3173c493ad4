package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.schemas.avro.RequestCompleted;
import io.vertx.core.Vertx;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conversations end to end on the built-in simulated engine (issue 29): a 3-turn run of 12 requests at
 * concurrency 2, whose later turns re-send the history, so the server's prompt tokens grow turn by turn.
 */
class ConversationSimTest {
    private Vertx vertx;
    private SimEngine sim;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(2).decodeTokPerS(5000).streamDecodeTokPerS(2000)
                .tickMs(2).build()).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void threeTurnConversationsResendTheirHistory() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(12).withConcurrency(2))
                .withRequest(r -> r.withMaxTokens(16).withCtxTokens(256).withSharedPrefixTokens(0)
                        .withMaxModelLen(4096))
                .withConversation(s -> s.withTurns(new LengthDistribution(3, 0)).withSessionHeader("X-Session-Id"));
        RunOutcome o = new LoadGenerator(vertx).run(c, sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class).stream()
                .sorted(Comparator.comparingInt(RequestCompleted::getRequestIndex)).toList();
        assertThat(o.completed()).as("completed requests; events: " + done).isEqualTo(12);
        assertThat(o.interrupted()).as("interrupted").isFalse();
        for (int conv = 0; conv < 4; conv++) {
            List<RequestCompleted> turns = done.subList(3 * conv, 3 * conv + 3);
            assertThat(turns).as("conversation " + conv + "'s ids").extracting(RequestCompleted::getConversationId)
                    .containsOnly(o.runId() + "-c" + conv);
            assertThat(turns).as("its turns").extracting(RequestCompleted::getTurn).containsExactly(1, 2, 3);
            long p1 = turns.get(0).getPromptTokens();
            long p2 = turns.get(1).getPromptTokens();
            long p3 = turns.get(2).getPromptTokens();
            // turn k+1 re-sends turn k's prompt and answer plus a new ~256-token message
            assertThat(p2).as("turn 2's prompt tokens > turn 1's (" + p1 + ") + its answer").isGreaterThan(
                    p1 + turns.get(0).getCompletionTokens() + 200);
            assertThat(p3).as("turn 3's prompt tokens > turn 2's (" + p2 + ") + its answer").isGreaterThan(
                    p2 + turns.get(1).getCompletionTokens() + 200);
            assertThat(turns).as("no early end").extracting(RequestCompleted::getConversationEnd).containsOnlyNulls();
        }
    }
}

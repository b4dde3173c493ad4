package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A conversation that ended early leaves its later turns unsent ({@code unsent_turns} on its last sent request,
 * issue 29): {@link RunCollector} publishes the report as soon as RunFinished and the sent requests are in, without
 * waiting for the unsent indices, and the report is complete with no missing index, also when the run is restored
 * from the stores (the unsent indices are in the progress store) and for a time-bounded run.
 */
class ConversationCompletenessTest extends RunCollectorFixture {
    ConversationCompletenessTest() {
        super("mock://conversations");
    }

    /** A turn of conversation {@code c}; {@code unsent} > 0 ends it early. */
    private static RunEvent turn(String runId, int index, int c, int turn, int unsent) {
        RunEvent e = TestRuns.completed(runId, index);
        RequestCompleted r = (RequestCompleted) e.getPayload();
        r.setConversationId(runId + "-c" + c);
        r.setTurn(turn);
        r.setOutputKind("text");
        r.setToolCalls(0);
        if (unsent > 0) {
            r.setConversationEnd("the history outgrew the context window");
            r.setUnsentTurns(unsent);
        }
        return e;
    }

    /** A failed turn that ends conversation {@code c} with {@code unsent} turns left. */
    private static RunEvent failedTurn(String runId, int index, int c, int turn, int unsent) {
        RunEvent e = TestRuns.failed(runId, index);
        RequestFailed f = (RequestFailed) e.getPayload();
        f.setConversationId(runId + "-c" + c);
        f.setTurn(turn);
        f.setConversationEnd("the answer failed (ValueError)");
        f.setUnsentTurns(unsent);
        return e;
    }

    /**
     * 3 conversations of 3 turns (9 planned requests): c0 ends after its turn 1 (2 unsent: 1, 2), c1 runs all
     * three (3, 4, 5), c2's turn 2 fails (1 unsent: 8); RunFinished says 6 sent.
     */
    private static List<RunEvent> run(String runId) {
        List<RunEvent> out = new ArrayList<>();
        out.add(TestRuns.started(runId, 9, Origins.LIVE));
        out.add(turn(runId, 3, 1, 1, 0));
        out.add(turn(runId, 0, 0, 1, 2));
        out.add(turn(runId, 4, 1, 2, 0));
        out.add(turn(runId, 6, 2, 1, 0));
        out.add(turn(runId, 5, 1, 3, 0));
        out.add(failedTurn(runId, 7, 2, 2, 1));
        out.add(TestRuns.finished(runId, 6));
        return out;
    }

    @Test
    void reportIsPublishedWithoutWaitingForUnsentTurnsAndIsComplete() {
        RunCollector c = newInstance();
        List<RunEvent> run = run("conv");
        feed(c, run.subList(0, run.size() - 1));
        assertThat(reports()).as("reports before RunFinished").isEmpty();

        feed(c, run.subList(run.size() - 1, run.size()));
        List<BenchmarkReport> published = reports();
        assertThat(published).as("reports once RunFinished is in (no deadline passed)").hasSize(1);
        BenchmarkReport r = published.get(0);
        assertThat(r.getProvenance().getMissingRequestIndices()).as("missing indices").isEmpty();
        assertThat(r.getProvenance().getComplete()).as("complete").isTrue();
        assertThat(r.getRequests()).as("requests (the 3 unsent turns are not requests)").isEqualTo(6);
        assertThat(r.getCompleted() + r.getFailed()).as("completed + failed").isEqualTo(6);
        assertThat(r.getSessions().getEndedEarly()).as("sessions.ended_early").isEqualTo(2);
        assertThat(TestRuns.entries(events)).as("events left in the store").isZero();
    }

    @Test
    void restoredRunKnowsItsUnsentTurns() {
        List<RunEvent> run = run("conv-restored");
        RunCollector first = newInstance();
        feed(first, run.subList(0, run.size() - 1));
        first.close();

        RunCollector second = newInstance(); // the progress store holds the unsent indices
        feed(second, run.subList(run.size() - 1, run.size()));
        List<BenchmarkReport> published = reports();
        assertThat(published).as("reports of the restored run").hasSize(1);
        assertThat(published.get(0).getProvenance().getComplete()).as("complete after restore").isTrue();
        assertThat(published.get(0).getProvenance().getMissingRequestIndices()).as("missing after restore").isEmpty();
    }

    @Test
    void aTurnThatNeverArrivedIsStillMissingAtTheDeadline() {
        List<RunEvent> run = run("conv-lost");
        run.removeIf(e -> e.getPayload() instanceof RequestCompleted rc && rc.getRequestIndex() == 4);
        RunCollector c = newInstance();
        feed(c, run);
        assertThat(reports()).as("reports while request 4 is outstanding").isEmpty();

        context.setCurrentSystemTimeMs(1_000L + config.incompleteDeadline().toMillis() + 1);
        context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1).getPunctuator()
                .punctuate(context.currentSystemTimeMs());
        List<BenchmarkReport> published = reports();
        assertThat(published).as("reports at the deadline").hasSize(1);
        assertThat(published.get(0).getProvenance().getMissingRequestIndices())
                .as("missing: the lost request, not the unsent turns").containsExactly(4);
        assertThat(published.get(0).getProvenance().getComplete()).as("complete").isFalse();
    }

    @Test
    void timeBoundedRunWithAnEarlyEndIsComplete() {
        // --duration: c0 ended early (1, 2 unsent), c1 ran (3, 4, 5); c2 never started
        String runId = "conv-bounded";
        RunEvent start = TestRuns.started(runId, 9, Origins.LIVE);
        ((RunStarted) start.getPayload()).setDurationS(2.0);
        RunCollector c = newInstance();
        feed(c, List.of(start, turn(runId, 0, 0, 1, 2), turn(runId, 3, 1, 1, 0), turn(runId, 4, 1, 2, 0),
                turn(runId, 5, 1, 3, 0), TestRuns.finished(runId, 4)));
        List<BenchmarkReport> published = reports();
        assertThat(published).as("reports of the time-bounded run").hasSize(1);
        assertThat(published.get(0).getProvenance().getMissingRequestIndices()).as("missing").isEmpty();
        assertThat(published.get(0).getProvenance().getComplete()).as("complete").isTrue();
        assertThat(published.get(0).getRequests()).as("requests").isEqualTo(4);
    }
}

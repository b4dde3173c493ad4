package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RunCollector} over stores that already hold part of a run, as after a restart or a
 * rebalance (the stores restored from the changelog, a new processor instance without its
 * in-memory {@link OpenRun} objects): the report must be the one an uninterrupted instance
 * publishes, and the store must be emptied of the run's events. {@link EventsStoreTest} has the restores of what
 * earlier versions wrote.
 */
class RunCollectorRestoreTest extends RunCollectorFixture {
    RunCollectorRestoreTest() {
        super("mock://restore");
    }

    private int storedEvents() {
        return TestRuns.entries(events);
    }

    @Test
    void runHalfProcessedByAnEarlierInstanceGivesTheUninterruptedReport() {
        int n = 40;
        List<RunEvent> run = TestRuns.run("restored", n);
        RunCollector first = newInstance();
        feed(first, run.subList(0, 21)); // RunStarted and requests 0..19
        feed(first, List.of(TestRuns.completed("restored", 3))); // a duplicate, counted once
        commit();
        first.close();
        assertThat(storedEvents()).as("records of the 21 events after one commit (one batch)").isEqualTo(1);
        assertThat(reports()).isEmpty();

        RunCollector second = restart();
        feed(second, List.of(TestRuns.completed("restored", 7))); // a duplicate of a restored event
        feed(second, run.subList(21, run.size()));
        List<BenchmarkReport> published = reports();
        assertEquals(1, published.size());
        BenchmarkReport restored = published.get(0);
        assertEquals(0, storedEvents(), "the run's events are deleted from the store after publishing");
        assertEquals(2, restored.getProvenance().getDuplicateEvents());
        assertTrue(restored.getProvenance().getComplete());

        RunCollector uninterrupted = newInstance();
        List<RunEvent> same = TestRuns.run("uninterrupted", n);
        feed(uninterrupted, same);
        BenchmarkReport reference = reports().get(0);
        assertEquals(0, storedEvents());
        assertEquals(reference.getMetrics(), restored.getMetrics());
        assertEquals(reference.getRequestTimings(), restored.getRequestTimings());
        assertEquals(n, restored.getRequestTimings().size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, restored.getRequestTimings().get(i).getRequestIndex());
        }
    }

    @Test
    void restoredRunWithMissingRequestsIsPublishedAtTheDeadlineFromTheStore() {
        List<RunEvent> run = TestRuns.run("stalled", 5);
        RunCollector first = newInstance();
        feed(first, run.subList(0, 1 + 3)); // RunStarted and requests 0..2; 3, 4 and RunFinished never come
        first.close();

        newInstance(); // restored: knows the run only from the stores
        context.setCurrentSystemTimeMs(1_000L + config.incompleteDeadline().toMillis() + 1);
        context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1).getPunctuator()
                .punctuate(context.currentSystemTimeMs());
        List<BenchmarkReport> published = reports();
        assertEquals(1, published.size());
        assertFalse(published.get(0).getProvenance().getComplete());
        assertEquals(List.of(3, 4), published.get(0).getProvenance().getMissingRequestIndices());
        assertEquals(3, published.get(0).getCompleted());
        assertEquals(0, storedEvents(), "the restored run's events are deleted from the store");
    }

    @Test
    void runsOfBothKindsInOneInstanceAreKeptApart() {
        List<RunEvent> a = TestRuns.run("a", 10);
        RunCollector first = newInstance();
        feed(first, a.subList(0, 6));
        first.close();

        RunCollector second = newInstance();
        List<RunEvent> b = new ArrayList<>(TestRuns.run("b", 12));
        Collections.reverse(b); // RunFinished first, RunStarted last
        feed(second, b.subList(0, 5));
        feed(second, a.subList(6, a.size()));
        feed(second, b.subList(5, b.size()));
        List<BenchmarkReport> published = reports();
        assertEquals(List.of("a", "b"), published.stream().map(BenchmarkReport::getRunId).toList());
        assertEquals(10, published.get(0).getCompleted());
        assertEquals(12, published.get(1).getCompleted());
        assertFalse(published.get(1).getProvenance().getDuplicateEvents() > 0);
        assertEquals(0, storedEvents());
    }

    @Test
    void aRestoredDistributedRunListsTheSameWorkersAsAnUninterruptedOne() {
        List<RunEvent> run = TestRuns.distributed("restored-3w", 30, 3);
        RunCollector first = newInstance();
        feed(first, run.subList(0, 16)); // RunStarted and requests 0..14 of the three workers
        feed(first, List.of(run.get(run.size() - 1))); // w2's RunFinished
        first.close();

        RunCollector second = newInstance();
        feed(second, run.subList(16, run.size() - 1));
        List<BenchmarkReport> published = reports();
        assertEquals(1, published.size());
        BenchmarkReport restored = published.get(0);
        assertEquals(0, storedEvents());

        RunCollector uninterrupted = newInstance();
        feed(uninterrupted, TestRuns.distributed("uninterrupted-3w", 30, 3));
        BenchmarkReport reference = reports().get(0);
        assertEquals(3, restored.getWorkers().size());
        assertEquals(reference.getWorkers(), restored.getWorkers());
        assertEquals(reference.getClockOffsetSpreadMs(), restored.getClockOffsetSpreadMs());
        assertEquals(10, restored.getWorkers().get("w2").getRequests());
        assertTrue(restored.getWorkers().get("w2").getRunFinished());
    }
}

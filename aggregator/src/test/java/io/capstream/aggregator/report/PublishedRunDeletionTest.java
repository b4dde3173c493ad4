package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.RunEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: publishing a run deletes its events from the events store with one tombstone per record written (one
 * batch per commit, {@link EventsStore}), not one per event, and without reading them back.
 */
class PublishedRunDeletionTest extends RunCollectorFixture {
    PublishedRunDeletionTest() {
        super("mock://published-run-deletion-test");
    }

    @Test
    void aPublishedRunsEventsAreDeletedWithOneTombstonePerBatch() {
        RunCollector c = newInstance();
        List<RunEvent> run = TestRuns.run("deleted", 50); // 52 events
        for (int from = 0; from < 50; from += 10) {
            feed(c, run.subList(from, from + 10));
            commit();
        }
        assertThat(eventRecordsWritten.get()).as("batches written by 5 commits of 10 events").isEqualTo(5);
        feed(c, run.subList(50, run.size()));
        long reports = context.forwarded().stream().filter(f -> f.record().value() instanceof ReportOutput.Report)
                .count();
        assertThat(reports).as("reports published").isEqualTo(1);
        assertThat(TestRuns.entries(events)).as("records left in the events store after publishing").isZero();
        assertThat(eventTombstones()).as("tombstones written when the run of 5 batches was published")
                .isEqualTo(5);
        commit();
        assertThat(eventRecordsWritten.get()).as("batches written after the commit that follows publishing")
                .isEqualTo(5);
    }
}

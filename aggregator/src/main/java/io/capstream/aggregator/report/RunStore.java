package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.List;
import java.util.Map;

/**
 * The report topology's state for open runs, over two stores, both written once per commit: one small
 * {@link RunProgress} per run ({@link ProgressStore}), and every stored event of a run, written in one batch per
 * run and commit and deleted when the run is published ({@link EventsStore}). Not thread-safe: one instance per
 * stream task.
 */
final class RunStore {
    private final ProgressStore progress;
    private final EventsStore events;

    RunStore(ProgressStore progress, EventsStore events) {
        this.progress = progress;
        this.events = events;
    }

    /** @return the run's stored progress, or null when the store has none */
    RunProgress storedProgress(String runId) {
        return progress.get(runId);
    }

    /** Keeps the run's progress; it reaches the store and its changelog at the next commit ({@link ProgressStore}). */
    void putProgress(String runId, RunProgress p) {
        progress.put(runId, p);
    }

    /**
     * Loads a run restored from the changelog (its progress is in the store, its events were not
     * seen by this processor instance) into an {@link OpenRun}.
     *
     * @param runId    run id
     * @param progress the run's stored progress
     * @return the run with every event the store holds for it (earlier versions' per-event records included)
     */
    OpenRun load(String runId, RunProgress progress) {
        OpenRun run = new OpenRun(progress);
        for (RunEvent e : events.events(runId)) {
            Object payload = e.getPayload();
            if (payload instanceof RunStarted) {
                if (run.started() == null) {
                    run.started(e);
                }
            } else if (payload instanceof RequestCompleted || payload instanceof RequestFailed) {
                run.request(e);
            } else if (payload instanceof RunFinished) {
                run.finished(OpenRun.finisher(e), e);
            } else if (payload instanceof Heartbeat) {
                run.scrape(e);
            }
        }
        return run;
    }

    /**
     * Stores an event of the run (the caller has checked that it is new); it reaches the store and its changelog
     * with the run's other new events at the next commit ({@link EventsStore}).
     */
    void put(String runId, RunEvent event) {
        events.add(runId, event);
    }

    /** Deletes every event of the run and its progress. */
    void deleteRun(String runId) {
        deleteEvents(runId);
        progress.delete(runId);
    }

    /**
     * Deletes every event of the run (keeps its progress): those not yet written are dropped, each record written
     * (one per batch) gets a tombstone.
     */
    void deleteEvents(String runId) {
        events.deleteRun(runId);
    }

    /** @return a snapshot of every run's progress (the iterator is closed before returning) */
    List<Map.Entry<String, RunProgress>> allProgress() {
        return progress.all();
    }
}

package io.capstream.aggregator.report;

import io.capstream.aggregator.report.calc.WorkerEvents;
import io.capstream.schemas.avro.RunFinished;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts a run's request events per worker id and collects its workers' RunFinished, while
 * {@link RunCollector} builds the run's report: the {@link io.capstream.aggregator.report.calc.RunData#workers()}
 * of the report. Needs no state of its own: the events store keeps whole {@code RunEvent}s, envelope
 * {@code worker_id} included, so a run restored from the changelog (and a replay, whose events keep
 * their worker ids) is counted from the same events. Not thread-safe: one per publication.
 */
final class WorkerTally {
    private final Map<String, int[]> counts = new TreeMap<>();
    private final Map<String, RunFinished> finished = new TreeMap<>();

    /**
     * Counts one request event that the report uses.
     *
     * @param workerId  its envelope worker id; not null
     * @param completed true for RequestCompleted, false for RequestFailed
     */
    void request(String workerId, boolean completed) {
        counts.computeIfAbsent(workerId, k -> new int[2])[completed ? 0 : 1]++;
    }

    /**
     * Records a worker's RunFinished (the first one kept per worker).
     *
     * @param workerId its envelope worker id; not null
     * @param event    the RunFinished payload; not null
     */
    void finished(String workerId, RunFinished event) {
        finished.putIfAbsent(workerId, event);
    }

    /** @return one entry per worker id that sent a counted request event or a RunFinished, sorted by id */
    Map<String, WorkerEvents> events() {
        Map<String, WorkerEvents> out = new TreeMap<>();
        counts.forEach((id, c) -> out.put(id, new WorkerEvents(c[0], c[1], finished.get(id))));
        finished.forEach((id, f) -> out.putIfAbsent(id, new WorkerEvents(0, 0, f)));
        return out;
    }
}

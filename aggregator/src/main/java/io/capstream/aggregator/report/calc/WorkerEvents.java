package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RunFinished;

/**
 * What one generator worker contributed to a run's report: its request events (as counted by the
 * collector, one per request index, attributed by the envelope's {@code worker_id}) and its
 * RunFinished. The input of {@link WorkersCalculator} for one worker id.
 *
 * @param completed RequestCompleted events from the worker, &gt;= 0
 * @param failed    RequestFailed events from the worker, &gt;= 0
 * @param finished  the worker's RunFinished, or null when it has not arrived
 */
public record WorkerEvents(int completed, int failed, RunFinished finished) {
    /**
     * @throws IllegalArgumentException when a count is negative
     */
    public WorkerEvents {
        if (completed < 0 || failed < 0) {
            throw new IllegalArgumentException("negative request count: completed " + completed + ", failed " + failed);
        }
    }

    /** @return completed + failed */
    public int requests() {
        return completed + failed;
    }
}

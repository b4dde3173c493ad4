package io.capstream.cli.runner;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.WorkerSummary;
import java.util.Map;

/**
 * Whether the report that arrived under a run's id is that run's: on one Kafka, two runs started in the same second
 * share a derived run id (spec §9.2), the aggregator keeps the first and ignores the later one's events as
 * duplicates, and the later {@code run} would otherwise print and write the other run's numbers as its own.
 *
 * <p>A live report lists its generator workers by worker id ({@code BenchmarkReport.workers}); the run's own worker
 * must be there and, when the run sent requests, with requests of its own. Reports without workers (imports) are not
 * judged. Stateless.
 */
final class ReportOwnership {
    private ReportOwnership() {
    }

    /**
     * @param report       the report that arrived for {@code runId}; not null
     * @param workerId     this process's worker id (the RunOutcome's); not null
     * @param requestsSent how many requests this process sent
     * @return one line saying that the report is another run's, or null when it is this run's (or cannot be told)
     */
    static String foreign(BenchmarkReport report, String workerId, int requestsSent) {
        Map<String, WorkerSummary> workers = report.getWorkers();
        if (workers == null || workers.isEmpty()) {
            return null;
        }
        WorkerSummary own = workers.get(workerId);
        if (own != null && (requestsSent == 0 || own.getRequests() > 0)) {
            return null;
        }
        return "the report under run id " + report.getRunId() + " is another run's (its " + report.getRequests()
                + " requests came from " + String.join(", ", workers.keySet()) + ", not from this run's " + workerId
                + "): two runs on one Kafka had the same run id (derived ids have second resolution: runs started"
                + " in the same second share one), and the aggregator kept the other's; give each run its own id"
                + " (--run-id-suffix or --run-id); no report was written";
    }
}

package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the aggregator collected for one run: the input of {@link ReportCalculator#compute(RunData)}.
 *
 * @param runId run id (the Kafka key), not null
 * @param started the run's {@code RunStarted}; null only when it never arrived (the report then has
 *     empty header strings and {@code requests} = events seen)
 * @param completed successful requests, duplicates already removed, any order; null = empty
 * @param failed failed requests, duplicates already removed, any order; null = empty
 * @param finished the run's {@code RunFinished}, or null when it has not arrived (incomplete report)
 * @param provenance how the report was produced (kind, replay_of, source_file, generated_at_ms,
 *     duplicate_events are copied; missing_request_indices becomes the union of the given indices
 *     and the plan indices without an event; complete becomes the given value AND no missing index
 *     AND finished != null AND started != null; run_finished_seen the given value AND
 *     finished != null); null = LIVE, complete, generated_at_ms 0
 * @param workers the run's events per worker id (request counts and RunFinished, see
 *     {@link WorkersCalculator}); null when the caller does not know the workers (the report's
 *     {@code workers} is then null); copied into an unmodifiable map sorted by worker id
 * @param serverScrapes the run's scrapes of the endpoint's metrics (Heartbeats with {@code server_samples}) in
 *     the order they arrived, duplicates removed: with a worker's {@code RunFinished.server_scraping} they make
 *     the report's {@code server_metrics} ({@link ServerMetricsCalculator}); null = none
 */
public record RunData(String runId, RunStarted started, List<RequestCompleted> completed,
                      List<RequestFailed> failed, RunFinished finished, Provenance provenance,
                      Map<String, WorkerEvents> workers, List<ScrapeSample> serverScrapes) {
    /** Normalises null lists to empty lists. */
    public RunData {
        completed = completed == null ? List.of() : List.copyOf(completed);
        failed = failed == null ? List.of() : List.copyOf(failed);
        workers = workers == null ? null : Collections.unmodifiableMap(new TreeMap<>(workers));
        serverScrapes = serverScrapes == null ? List.of() : List.copyOf(serverScrapes);
    }

    /**
     * Run data without scrapes of the endpoint's metrics.
     *
     * @see #RunData(String, RunStarted, List, List, RunFinished, Provenance, Map, List)
     */
    public RunData(String runId, RunStarted started, List<RequestCompleted> completed, List<RequestFailed> failed,
                   RunFinished finished, Provenance provenance, Map<String, WorkerEvents> workers) {
        this(runId, started, completed, failed, finished, provenance, workers, null);
    }

    /**
     * Run data without per-worker information ({@code workers} null), e.g. an import's or a test's.
     *
     * @see #RunData(String, RunStarted, List, List, RunFinished, Provenance, Map, List)
     */
    public RunData(String runId, RunStarted started, List<RequestCompleted> completed, List<RequestFailed> failed,
                   RunFinished finished, Provenance provenance) {
        this(runId, started, completed, failed, finished, provenance, null, null);
    }
}

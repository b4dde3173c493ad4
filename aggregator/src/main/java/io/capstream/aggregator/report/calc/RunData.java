package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.List;

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
 */
public record RunData(String runId, RunStarted started, List<RequestCompleted> completed,
                      List<RequestFailed> failed, RunFinished finished, Provenance provenance) {
    /** Normalises null lists to empty lists. */
    public RunData {
        completed = completed == null ? List.of() : List.copyOf(completed);
        failed = failed == null ? List.of() : List.copyOf(failed);
    }
}

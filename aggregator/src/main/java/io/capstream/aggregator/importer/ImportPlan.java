package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import java.util.List;

/**
 * What importing one artifact produces: either the events that would have produced it (artifacts
 * with rows), or a summary-only report (legacy and capacity-v2 artifacts, published unchanged).
 *
 * @param runId the artifact's {@code run_id}
 * @param sourceFile the file name the artifact came from
 * @param generation detected artifact generation
 * @param artifact the parsed artifact (for {@link MetricComparison})
 * @param events RunStarted, one RequestCompleted per row, one RequestFailed per failure, RunFinished
 *     (in that order); empty for summary-only artifacts
 * @param summaryReport the report to publish as is for rowless artifacts; null otherwise
 */
public record ImportPlan(String runId, String sourceFile, ArtifactGeneration generation, JsonNode artifact,
                         List<RunEvent> events, BenchmarkReport summaryReport) {
    /** Defensive copy of the event list. */
    public ImportPlan {
        events = events == null ? List.of() : List.copyOf(events);
    }

    /** @return true when the artifact has no rows and {@link #summaryReport()} is to be published */
    public boolean summaryOnly() {
        return summaryReport != null;
    }
}

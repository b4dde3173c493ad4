package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
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

    /**
     * The plan's events as calculator input, without Kafka (for tests and direct recomputation).
     *
     * @param generatedAtMs provenance generated_at_ms, epoch ms
     * @return run data with provenance IMPORTED and this plan's source file
     * @throws IllegalStateException for a summary-only plan
     */
    public RunData toRunData(long generatedAtMs) {
        if (summaryOnly()) {
            throw new IllegalStateException("summary-only artifact " + sourceFile + " has no events");
        }
        RunStarted started = null;
        RunFinished finished = null;
        List<RequestCompleted> completed = new ArrayList<>();
        List<RequestFailed> failed = new ArrayList<>();
        for (RunEvent e : events) {
            Object p = e.getPayload();
            if (p instanceof RunStarted s) {
                started = s;
            } else if (p instanceof RunFinished f) {
                finished = f;
            } else if (p instanceof RequestCompleted c) {
                completed.add(c);
            } else if (p instanceof RequestFailed f) {
                failed.add(f);
            }
        }
        Provenance prov = Provenance.newBuilder().setKind(ReportKind.IMPORTED).setSourceFile(sourceFile)
                .setGeneratedAtMs(generatedAtMs).build();
        return new RunData(runId, started, completed, failed, finished, prov);
    }
}

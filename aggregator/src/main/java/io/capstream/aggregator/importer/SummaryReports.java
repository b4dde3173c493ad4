package io.capstream.aggregator.importer;

import static io.capstream.aggregator.importer.ArtifactImporter.doubleOrNull;
import static io.capstream.aggregator.importer.ArtifactImporter.intOrNull;
import static io.capstream.aggregator.importer.ArtifactImporter.longOrNull;
import static io.capstream.aggregator.importer.ArtifactImporter.objectOrNull;
import static io.capstream.aggregator.importer.ArtifactImporter.textOrNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.ServeFlags;
import io.capstream.schemas.report.ReportArtifact;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Summary-only reports for rowless artifacts (legacy and capacity-v2, spec §10.1): the typed
 * fields are copied from the file (null where that generation lacks them; {@code metrics} by the
 * schema's field names, {@link ReportArtifact#metricsFromArtifact}), provenance is
 * {@code IMPORTED_SUMMARY}, and {@code artifact_json} is the file's own text, unchanged.
 */
final class SummaryReports {
    private SummaryReports() {
    }

    static BenchmarkReport fromArtifact(JsonNode a, ArtifactGeneration gen, String fileName, String text) {
        List<FailureEntry> failures = new ArrayList<>();
        JsonNode fs = a.get("failures");
        if (fs != null && fs.isArray()) {
            for (JsonNode f : fs) {
                failures.add(FailureEntry.newBuilder().setRequestIndex(f.get("request_index").intValue())
                        .setErrorType(f.get("error_type").textValue())
                        .setErrorMessage(textOrNull(f.get("error_message")))
                        .setErrorMessageTruncated(f.has("error_message_truncated") && !f.get("error_message_truncated").isNull()
                                ? f.get("error_message_truncated").asBoolean() : null)
                        .build());
            }
            failures.sort((x, y) -> Integer.compare(x.getRequestIndex(), y.getRequestIndex()));
        }
        Map<String, Integer> dist = objectOrNull(a.get("context_distribution"), TreeMap::new, JsonNode::intValue);
        ServeFlags flags = null;
        JsonNode sf = a.get("serve_flags");
        if (sf != null && sf.isObject()) {
            flags = ServeFlags.newBuilder()
                    .setSharedPrefixBurst(sf.path("shared_prefix_burst").asBoolean(false))
                    .setNoThinking(sf.path("no_thinking").asBoolean(false))
                    .setThinkingMode(sf.path("thinking_mode").asText("default"))
                    .setReasoningEffort(textOrNull(sf.get("reasoning_effort")))
                    .build();
        }
        Map<String, String> tm = objectOrNull(a.get("timing_methodology"), TreeMap::new, JsonNode::asText);
        return BenchmarkReport.newBuilder()
                .setSchema$(a.get("schema").textValue())
                .setMeasurementProtocol(textOrNull(a.get("measurement_protocol")))
                .setRunId(a.get("run_id").textValue())
                .setStartedAt(textOrNull(a.get("started_at")))
                .setFinishedAt(textOrNull(a.get("finished_at")))
                .setWallClockMs(doubleOrNull(a.get("wall_clock_ms")))
                .setBaseUrl(a.get("base_url").textValue())
                .setModel(a.get("model").textValue())
                .setEngine(textOrNull(a.get("engine")))
                .setGpu(textOrNull(a.get("gpu")))
                .setTier(textOrNull(a.get("tier")))
                .setManifest(textOrNull(a.get("manifest")))
                .setSourceRecipe(textOrNull(a.get("source_recipe")))
                .setRequests(a.get("requests").intValue())
                .setCompleted(a.get("completed").intValue())
                .setFailed(intOrNull(a.get("failed")))
                .setFailures(failures)
                .setConcurrency(a.get("concurrency").intValue())
                .setContextTokens(intOrNull(a.get("context_tokens")))
                .setContextSeed(longOrNull(a.get("context_seed")))
                .setContextDistribution(dist)
                .setMaxContextTokens(intOrNull(a.get("max_context_tokens")))
                .setMaxTokens(a.get("max_tokens").intValue())
                .setServeFlags(flags)
                .setTimingMethodology(tm)
                .setRequestTimings(List.of())
                .setMetrics(ReportArtifact.metricsFromArtifact(a.get("metrics")))
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.IMPORTED_SUMMARY).setSourceFile(fileName)
                        .setComplete(true).setRunFinishedSeen(true).build())
                .setArtifactJson(text)
                .build();
    }
}

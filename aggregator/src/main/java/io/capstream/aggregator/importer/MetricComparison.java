package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.avro.BenchmarkReport;
import java.util.List;

/**
 * Compares a recomputed report's {@code metrics} with an artifact's own: every metric key the
 * artifact has must be present and equal (floats within {@link #RELATIVE_TOLERANCE} relative,
 * integers, strings, booleans and nulls exactly, objects key by key).
 */
public final class MetricComparison {
    /** Relative tolerance for floating-point metrics. */
    public static final double RELATIVE_TOLERANCE = 1e-9;

    private MetricComparison() {
    }

    /**
     * One metric that differs.
     *
     * @param key metric key (e.g. {@code ttft_p50_ms}, or {@code output_token_sources.usage})
     * @param expected the artifact's value (null when missing)
     * @param actual the recomputed value (null when missing)
     * @param reason short explanation
     */
    public record Mismatch(String key, JsonNode expected, JsonNode actual, String reason) {
    }

    /**
     * @param expectedArtifact the original artifact tree
     * @param actualArtifact the recomputed artifact tree
     * @return mismatches; empty = "matched"
     */
    public static List<Mismatch> compare(JsonNode expectedArtifact, JsonNode actualArtifact) {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }

    /**
     * @param expectedArtifact the original artifact tree
     * @param actual recomputed report (its artifact_json is parsed)
     * @return mismatches; empty = "matched"
     */
    public static List<Mismatch> compare(JsonNode expectedArtifact, BenchmarkReport actual) {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }
}

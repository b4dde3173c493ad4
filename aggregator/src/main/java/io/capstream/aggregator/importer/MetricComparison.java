package io.capstream.aggregator.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Compares a recomputed report with an artifact's own numbers: every key of the artifact's
 * {@code metrics} object, plus the top-level {@link #TOP_LEVEL_KEYS} the artifact has. Floats must
 * agree within {@link #RELATIVE_TOLERANCE} relative (|a - b| &lt;= tol * max(|a|, |b|)); integers,
 * strings, booleans and nulls exactly; an integer never equals a float (the reference's types are
 * part of its format, spec §9.1); objects key by key. Keys the recomputed report has in addition
 * (e.g. TTFO metrics for an early-v3 file) are ignored.
 */
public final class MetricComparison {
    /** Relative tolerance for floating-point metrics. */
    public static final double RELATIVE_TOLERANCE = 1e-9;
    /** Top-level keys compared besides metrics (when the artifact has them). */
    public static final List<String> TOP_LEVEL_KEYS =
            List.of("measurement_protocol", "requests", "completed", "failed", "wall_clock_ms");

    private MetricComparison() {
    }

    /**
     * One value that differs.
     *
     * @param key metric key (e.g. {@code ttft_p50_ms}, {@code output_token_sources.usage}) or top-level key
     * @param expected the artifact's value (null when missing)
     * @param actual the recomputed value (null when missing)
     * @param reason short explanation
     */
    public record Mismatch(String key, JsonNode expected, JsonNode actual, String reason) {
        @Override
        public String toString() {
            return key + ": expected " + expected + ", got " + actual + " (" + reason + ")";
        }
    }

    /**
     * @param expectedArtifact the original artifact tree
     * @param actualArtifact the recomputed artifact tree
     * @return mismatches; empty = "matched"
     */
    public static List<Mismatch> compare(JsonNode expectedArtifact, JsonNode actualArtifact) {
        List<Mismatch> out = new ArrayList<>();
        for (String k : TOP_LEVEL_KEYS) {
            if (expectedArtifact.has(k)) {
                compareValue(k, expectedArtifact.get(k), actualArtifact.get(k), out);
            }
        }
        JsonNode em = expectedArtifact.path("metrics");
        JsonNode am = actualArtifact.path("metrics");
        for (Iterator<Map.Entry<String, JsonNode>> it = em.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            compareValue(e.getKey(), e.getValue(), am.get(e.getKey()), out);
        }
        return out;
    }

    /**
     * @param expectedArtifact the original artifact tree
     * @param actual recomputed report (its artifact_json is parsed)
     * @return mismatches; empty = "matched"
     * @throws IllegalArgumentException when the report's artifact_json is not JSON
     */
    public static List<Mismatch> compare(JsonNode expectedArtifact, BenchmarkReport actual) {
        try {
            return compare(expectedArtifact, ArtifactJson.parse(actual.getArtifactJson()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("report artifact_json is not JSON", e);
        }
    }

    private static void compareValue(String key, JsonNode e, JsonNode a, List<Mismatch> out) {
        if (a == null) {
            out.add(new Mismatch(key, e, null, "missing"));
            return;
        }
        if (e.isObject()) {
            if (!a.isObject()) {
                out.add(new Mismatch(key, e, a, "not an object"));
                return;
            }
            for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                compareValue(key + "." + k, e.get(k), a.get(k), out);
            }
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!e.has(k)) {
                    out.add(new Mismatch(key + "." + k, null, a.get(k), "unexpected key"));
                }
            }
            return;
        }
        if (e.isNumber() && a.isNumber()) {
            if (e.isIntegralNumber() != a.isIntegralNumber()) {
                out.add(new Mismatch(key, e, a, "int versus float"));
            } else if (e.isIntegralNumber()) {
                if (!e.bigIntegerValue().equals(a.bigIntegerValue())) {
                    out.add(new Mismatch(key, e, a, "differs"));
                }
            } else {
                double x = e.doubleValue();
                double y = a.doubleValue();
                if (!(x == y || Math.abs(x - y) <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y)))) {
                    out.add(new Mismatch(key, e, a, "relative difference "
                            + Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y))));
                }
            }
            return;
        }
        if (!e.equals(a)) {
            out.add(new Mismatch(key, e, a, "differs"));
        }
    }
}

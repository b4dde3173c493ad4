package io.capstream.schemas.artifact;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Generations of the {@code anvil-serving.benchmark/v1} capacity artifact (spec §10.1).
 */
public enum ArtifactGeneration {
    /** No {@code measurement_protocol}; 12 top-level keys; no rows. Summary only. */
    LEGACY,
    /** {@code capacity-v2}: failures and distribution, no rows. Summary only. */
    CAPACITY_V2,
    /** {@code capacity-v3} with 11-key rows (no time_to_first_output_ms, chunk counts). */
    CAPACITY_V3_EARLY,
    /** {@code capacity-v3} with the current 15-key rows. */
    CAPACITY_V3,
    /** {@code capacity-v4-reasoning} (current row shape). */
    CAPACITY_V4_REASONING,
    /** Anything else (another schema or an unknown protocol label). */
    UNKNOWN;

    /** @return true when the artifact carries per-request rows and can be recomputed. */
    public boolean hasRows() {
        return this == CAPACITY_V3_EARLY || this == CAPACITY_V3 || this == CAPACITY_V4_REASONING;
    }

    /**
     * Classifies an artifact tree.
     *
     * <p>Rules: {@code schema} must be {@code anvil-serving.benchmark/v1}; no (or null)
     * {@code measurement_protocol} is LEGACY; {@code capacity-v2} is CAPACITY_V2; {@code capacity-v3}
     * is CAPACITY_V3_EARLY when it has rows and the first row lacks {@code time_to_first_output_ms}
     * (or it has no {@code request_timings} key but a v3 label: treated as current); the
     * {@code capacity-v4-reasoning} label is CAPACITY_V4_REASONING.
     *
     * @param root the parsed artifact, not null
     * @return the generation, UNKNOWN when not a capacity artifact of schema v1
     */
    public static ArtifactGeneration detect(JsonNode root) {
        if (root == null || !root.isObject()) {
            return UNKNOWN;
        }
        JsonNode schema = root.get("schema");
        if (schema == null || !"anvil-serving.benchmark/v1".equals(schema.textValue())) {
            return UNKNOWN;
        }
        JsonNode mp = root.get("measurement_protocol");
        if (mp == null || mp.isNull()) {
            return LEGACY;
        }
        String label = mp.textValue();
        if (label == null) {
            return UNKNOWN;
        }
        switch (label) {
            case "capacity-v2":
                return CAPACITY_V2;
            case "capacity-v4-reasoning":
                return CAPACITY_V4_REASONING;
            case "capacity-v3": {
                JsonNode rows = root.get("request_timings");
                if (rows != null && rows.isArray() && rows.size() > 0 && rows.get(0).isObject()
                        && !rows.get(0).has("time_to_first_output_ms")) {
                    return CAPACITY_V3_EARLY;
                }
                return CAPACITY_V3;
            }
            default:
                return UNKNOWN;
        }
    }
}

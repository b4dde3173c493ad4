package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.events.EventBounds;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.text.RunIdRule;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Checks that an artifact can be imported, and names the first offending field.
 *
 * <p>Rules (issue 3): the schema is {@code anvil-serving.benchmark/v1} with a known protocol;
 * required header fields have the right JSON types; the {@code run_id} follows {@link RunIdRule} (no
 * {@code /}, {@code \}, control characters; at most {@value RunIdRule#MAX_LENGTH} characters); times ({@code *_ms} in rows, in metrics and
 * {@code wall_clock_ms}) are finite and not negative; token and chunk counts are integers
 * (a float such as {@code 3613.0} is rejected) and not negative; in each row
 * {@code time_to_first_output_ms <= ttft_ms <= e2e_ms}; request indices are unique across rows and
 * failures and lie in {@code 0..requests-1}; {@code completed} equals the number of rows;
 * {@code requests = completed + failed}; {@code failed} equals the number of failure entries.
 * Rowless artifacts (legacy, capacity-v2) get the header, count and metric checks only.
 */
final class ArtifactValidator {
    private final String file;

    ArtifactValidator(String file) {
        this.file = file;
    }

    private ArtifactValidationException bad(String field, String message) {
        return new ArtifactValidationException(file, field, message);
    }

    /**
     * @param root parsed artifact
     * @return the detected generation (never UNKNOWN)
     * @throws ArtifactValidationException on the first rule broken
     */
    ArtifactGeneration validate(JsonNode root) throws ArtifactValidationException {
        if (root == null || !root.isObject()) {
            throw bad("<root>", "not a JSON object");
        }
        JsonNode schema = root.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw bad("schema", "missing; expected \"anvil-serving.benchmark/v1\"");
        }
        if (!"anvil-serving.benchmark/v1".equals(schema.textValue())) {
            throw bad("schema", "wrong schema " + schema + "; expected \"anvil-serving.benchmark/v1\"");
        }
        ArtifactGeneration gen = ArtifactGeneration.detect(root);
        if (gen == ArtifactGeneration.UNKNOWN) {
            throw bad("measurement_protocol", "unknown measurement protocol " + root.get("measurement_protocol"));
        }
        requireText(root, "run_id");
        String runIdProblem = RunIdRule.problem(root.get("run_id").textValue());
        if (runIdProblem != null) {
            throw bad("run_id", runIdProblem);
        }
        requireText(root, "base_url");
        requireText(root, "model");
        int requests = count(root, "requests", true);
        if (gen.hasRows() && requests > EventBounds.MAX_REQUESTS) {
            // its events would be dead-lettered by the aggregator (EventBounds): say so before sending any
            throw bad("requests", "requests = " + requests + " is more than " + EventBounds.MAX_REQUESTS
                    + ", the most a run may have");
        }
        int completed = count(root, "completed", true);
        count(root, "concurrency", true);
        count(root, "max_tokens", true);
        boolean hasFailed = root.has("failed") && !root.get("failed").isNull();
        int failed = hasFailed ? count(root, "failed", true) : 0;
        optionalCount(root, "context_tokens");
        optionalCount(root, "max_context_tokens");
        time(root, "wall_clock_ms", root.get("wall_clock_ms"), gen.hasRows());

        JsonNode metrics = root.get("metrics");
        if (metrics == null || !metrics.isObject()) {
            throw bad("metrics", "missing or not an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            JsonNode v = e.getValue();
            String field = "metrics." + k;
            if (v.isNumber() && !Double.isFinite(v.doubleValue())) {
                throw bad(field, "NaN or infinite");
            }
            if (k.endsWith("_ms") && !v.isNull()) {
                time(metrics, field, v, true);
            }
            if ((k.equals("output_tokens") || k.equals("prompt_tokens") || k.equals("content_chunks")
                    || k.equals("reasoning_chunks") || k.equals("ttft_samples") || k.equals("prompt_token_samples"))
                    && !v.isNull()) {
                integer(field, v);
            }
        }

        Map<Integer, String> seen = new HashMap<>();
        JsonNode failures = root.get("failures");
        if (failures != null && !failures.isNull()) {
            if (!failures.isArray()) {
                throw bad("failures", "not an array");
            }
            for (int i = 0; i < failures.size(); i++) {
                JsonNode f = failures.get(i);
                String p = "failures[" + i + "]";
                if (!f.isObject()) {
                    throw bad(p, "not an object");
                }
                int idx = integer(p + ".request_index", f.get("request_index"));
                if (f.get("error_type") == null || !f.get("error_type").isTextual()) {
                    throw bad(p + ".error_type", "missing or not a string");
                }
                index(seen, idx, p + ".request_index", requests);
            }
            if (hasFailed && failures.size() != failed) {
                throw bad("failed", "failed = " + failed + " but failures has " + failures.size() + " entries");
            }
        }
        if (!gen.hasRows()) {
            checkRequests(hasFailed, requests, completed, failed);
            return gen;
        }

        JsonNode rows = root.get("request_timings");
        if (rows == null || !rows.isArray()) {
            throw bad("request_timings", "missing or not an array");
        }
        for (int i = 0; i < rows.size(); i++) {
            validateRow(rows.get(i), "request_timings[" + i + "]", gen == ArtifactGeneration.CAPACITY_V3_EARLY,
                    seen, requests);
        }
        if (completed != rows.size()) {
            throw bad("completed", "completed = " + completed + " but request_timings has " + rows.size() + " rows");
        }
        if (!hasFailed) {
            throw bad("failed", "missing");
        }
        checkRequests(true, requests, completed, failed);
        requireText(root, "started_at");
        requireText(root, "finished_at");
        JsonNode dist = root.get("context_distribution");
        if (dist != null && !dist.isNull()) {
            if (!dist.isObject()) {
                throw bad("context_distribution", "not an object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = dist.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                integer("context_distribution." + e.getKey(), e.getValue());
                try {
                    Integer.parseInt(e.getKey());
                } catch (NumberFormatException ex) {
                    throw bad("context_distribution." + e.getKey(), "key is not a decimal token count");
                }
            }
        }
        return gen;
    }

    private void checkRequests(boolean hasFailed, int requests, int completed, int failed)
            throws ArtifactValidationException {
        if (hasFailed && requests != completed + failed) {
            throw bad("requests", "requests = " + requests + " but completed + failed = " + (completed + failed));
        }
    }

    private void validateRow(JsonNode r, String p, boolean early, Map<Integer, String> seen, int requests)
            throws ArtifactValidationException {
        if (r == null || !r.isObject()) {
            throw bad(p, "not an object");
        }
        int idx = integer(p + ".request_index", r.get("request_index"));
        integer(p + ".planned_context_tokens", r.get("planned_context_tokens"));
        optionalInteger(r, p, "prompt_tokens");
        optionalInteger(r, p, "output_tokens");
        JsonNode src = r.get("output_token_source");
        if (src == null || !src.isTextual()) {
            throw bad(p + ".output_token_source", "missing or not a string");
        }
        if (!early || r.has("content_chunks")) {
            integer(p + ".content_chunks", r.get("content_chunks"));
        }
        if (!early || r.has("reasoning_chunks")) {
            integer(p + ".reasoning_chunks", r.get("reasoning_chunks"));
        }
        double ttft = time(r, p + ".ttft_ms", r.get("ttft_ms"), true);
        double e2e = time(r, p + ".e2e_ms", r.get("e2e_ms"), true);
        time(r, p + ".generation_ms", r.get("generation_ms"), true);
        if (!early || r.has("visible_generation_ms")) {
            time(r, p + ".visible_generation_ms", r.get("visible_generation_ms"), true);
        }
        if (!early || r.has("time_to_first_output_ms")) {
            double ttfo = time(r, p + ".time_to_first_output_ms", r.get("time_to_first_output_ms"), true);
            if (ttfo > ttft) {
                throw bad(p + ".time_to_first_output_ms", "time to first output " + ttfo + " ms is after TTFT " + ttft + " ms");
            }
        }
        if (e2e < ttft) {
            throw bad(p + ".e2e_ms", "e2e " + e2e + " ms is before TTFT " + ttft + " ms");
        }
        for (String k : new String[] {"effective_prefill_tok_s", "decode_tok_s", "mean_inter_token_latency_ms"}) {
            JsonNode v = r.get(k);
            if (v != null && !v.isNull() && (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0)) {
                throw bad(p + "." + k, "not a finite non-negative number: " + v);
            }
        }
        index(seen, idx, p + ".request_index", requests);
    }

    private void index(Map<Integer, String> seen, int idx, String field, int requests) throws ArtifactValidationException {
        String prev = seen.putIfAbsent(idx, field);
        if (prev != null) {
            throw bad(field, "duplicate request index " + idx + " (also at " + prev + ")");
        }
        if (idx >= requests) {
            throw bad(field, "request index " + idx + " outside 0.." + (requests - 1));
        }
    }

    private double time(JsonNode parent, String field, JsonNode v, boolean required) throws ArtifactValidationException {
        if (v == null || v.isNull()) {
            if (required) {
                throw bad(field, "missing");
            }
            return 0;
        }
        if (!v.isNumber()) {
            throw bad(field, "not a number: " + v);
        }
        double d = v.doubleValue();
        if (Double.isNaN(d)) {
            throw bad(field, "NaN");
        }
        if (Double.isInfinite(d)) {
            throw bad(field, "infinite");
        }
        if (d < 0) {
            throw bad(field, "negative time " + d);
        }
        return d;
    }

    private void requireText(JsonNode root, String key) throws ArtifactValidationException {
        JsonNode v = root.get(key);
        if (v == null || !v.isTextual()) {
            throw bad(key, "missing or not a string");
        }
    }

    private int count(JsonNode root, String key, boolean required) throws ArtifactValidationException {
        JsonNode v = root.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                throw bad(key, "missing");
            }
            return 0;
        }
        return integer(key, v);
    }

    private void optionalCount(JsonNode root, String key) throws ArtifactValidationException {
        JsonNode v = root.get(key);
        if (v != null && !v.isNull()) {
            integer(key, v);
        }
    }

    private void optionalInteger(JsonNode row, String p, String key) throws ArtifactValidationException {
        JsonNode v = row.get(key);
        if (v != null && !v.isNull()) {
            integer(p + "." + key, v);
        }
    }

    private int integer(String field, JsonNode v) throws ArtifactValidationException {
        if (v == null || v.isNull()) {
            throw bad(field, "missing");
        }
        if (!v.isIntegralNumber()) {
            throw bad(field, "not an integer: " + v);
        }
        if (!v.canConvertToInt() && !v.canConvertToLong()) {
            throw bad(field, "integer out of range: " + v);
        }
        if (v.longValue() < 0) {
            throw bad(field, "negative: " + v);
        }
        return v.canConvertToInt() ? v.intValue() : Integer.MAX_VALUE;
    }
}

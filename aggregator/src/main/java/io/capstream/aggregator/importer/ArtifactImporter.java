package io.capstream.aggregator.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.ExactSeconds;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns an {@code anvil-serving.benchmark/v1} artifact into the run events that would have
 * produced it, or a summary-only report for rowless artifacts (spec §10.1: legacy and capacity-v2
 * are never recomputed). Pure apart from reading the file; thread-safe.
 *
 * <p><b>Events of an artifact with rows</b> (capacity-v3 early/current, capacity-v4-reasoning, also
 * with zero rows), key = the artifact's {@code run_id}, {@code worker_id = "import"}, event ids
 * name-based UUIDs of (run id, file name, event kind, request index), so importing a file twice
 * yields the same ids:
 * <ul>
 *   <li>{@code RunStarted}: header fields, serve flags (with {@code serve_flags_present} /
 *       {@code serve_flags_has_reasoning_effort}), {@code timing_methodology} as written,
 *       {@code origin = "import"}, {@code source_file}; {@code planned_context_tokens[i]} is the
 *       row's value for completed requests; failed requests get the values the
 *       {@code context_distribution} has left over (multiset difference), smallest value to the
 *       smallest index.</li>
 *   <li>One {@code RequestCompleted} per row with {@link ExactSeconds} reconstructed by
 *       {@link ExactSecondsSolver} so that every recomputed row value is bit-identical, and
 *       {@code *_ns} rounded from those seconds. Early-v3 rows have no {@code content_chunks}: the
 *       artifact's {@code metrics.content_chunks} total is split over the rows in request-index
 *       order, {@code floor(total / n)} each and one more for the first {@code total mod n} rows;
 *       their {@code reasoning_chunks} are 0 and their time to first output is null (= TTFT).
 *       Cached tokens: rows keep only the run's {@code prefix_cache_hit_avg}; when all rows with a
 *       prompt have the same prompt size, integer {@code cached_tokens} reproducing the average
 *       exactly are used; otherwise {@code exact_cached_fraction} carries the average on every row
 *       (with {@code cached_tokens = round(avg * prompt_tokens)} for information).</li>
 *   <li>One {@code RequestFailed} per {@code failures[]} entry (message fields as written).</li>
 *   <li>{@code RunFinished} with {@code wall_clock_s} reconstructed so that
 *       {@code wall_s * 1000.0 == wall_clock_ms} and the file's throughput is reproduced.</li>
 * </ul>
 *
 * <p><b>Rowless artifacts</b>: a {@code BenchmarkReport} with provenance
 * {@code IMPORTED_SUMMARY} whose {@code artifact_json} is the file's own text, unchanged
 * ({@link SummaryReports}).
 */
public final class ArtifactImporter {
    /** worker_id of imported events. */
    public static final String WORKER_ID = "import";
    /** RunStarted.origin of imported events. */
    public static final String ORIGIN = "import";

    private ArtifactImporter() {
    }

    /**
     * Reads and plans one artifact file.
     *
     * @param file the artifact
     * @return the plan
     * @throws ArtifactValidationException when the file cannot be read, is not JSON or breaks a rule
     *     (field {@code <file>} for read and parse errors)
     */
    public static ImportPlan plan(Path file) throws ArtifactValidationException {
        String name = file.getFileName().toString();
        String text;
        try {
            text = ArtifactJson.readText(file);
        } catch (IOException e) {
            throw new ArtifactValidationException(name, "<file>", "cannot read: " + e.getMessage());
        }
        return plan(text, name);
    }

    /**
     * Plans one artifact given as text.
     *
     * @param text the file's text
     * @param fileName name used in events, provenance and error messages
     * @return the plan
     * @throws ArtifactValidationException when the text is not JSON or breaks a rule
     */
    public static ImportPlan plan(String text, String fileName) throws ArtifactValidationException {
        JsonNode root;
        try {
            root = ArtifactJson.parse(text);
        } catch (JsonProcessingException e) {
            throw new ArtifactValidationException(fileName, "<file>",
                    io.capstream.schemas.text.JsonInputErrors.message(e, null));
        }
        return plan(root, fileName, text);
    }

    /**
     * Plans one parsed artifact.
     *
     * @param artifact parsed tree
     * @param fileName name used in events, provenance and error messages
     * @param originalText the file's exact text (kept as artifact_json of summary-only reports);
     *     null = re-serialise the tree
     * @return the plan
     * @throws ArtifactValidationException when the artifact breaks a rule
     */
    public static ImportPlan plan(JsonNode artifact, String fileName, String originalText)
            throws ArtifactValidationException {
        ArtifactGeneration gen = new ArtifactValidator(fileName).validate(artifact);
        String runId = artifact.get("run_id").textValue();
        boolean recomputable = gen.hasRows() && artifact.has("request_timings");
        if (!recomputable) {
            String text = originalText != null ? originalText : ArtifactJson.write(artifact);
            return new ImportPlan(runId, fileName, gen, artifact, List.of(),
                    SummaryReports.fromArtifact(artifact, gen, fileName, text));
        }
        return new ImportPlan(runId, fileName, gen, artifact, events(artifact, gen, fileName, runId), null);
    }

    private static List<RunEvent> events(JsonNode a, ArtifactGeneration gen, String fileName, String runId) {
        boolean early = gen == ArtifactGeneration.CAPACITY_V3_EARLY;
        List<JsonNode> rows = new ArrayList<>();
        a.get("request_timings").forEach(rows::add);
        rows.sort(Comparator.comparingInt(r -> r.get("request_index").intValue()));
        List<JsonNode> failures = new ArrayList<>();
        JsonNode fs = a.get("failures");
        if (fs != null && fs.isArray()) {
            fs.forEach(failures::add);
        }
        failures.sort(Comparator.comparingInt(f -> f.get("request_index").intValue()));
        JsonNode metrics = a.get("metrics");
        int requests = a.get("requests").intValue();
        String baseUrl = a.get("base_url").textValue();
        String model = a.get("model").textValue();
        String startedAt = a.get("started_at").textValue();
        String finishedAt = a.get("finished_at").textValue();
        long startedMs = epochMs(startedAt);
        long finishedMs = epochMs(finishedAt);

        int[] planned = plannedContexts(a, rows, failures, requests);
        int[] chunks = early ? distributeContentChunks(metrics, rows.size()) : null;
        CachedTokens cached = CachedTokens.reconstruct(rows, doubleOrNull(metrics.get("prefix_cache_hit_avg")));

        List<RunEvent> out = new ArrayList<>(rows.size() + failures.size() + 2);
        out.add(envelope(runId, fileName, "started", -1, startedMs, runStarted(a, planned, fileName, startedAt, startedMs)));
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            out.add(envelope(runId, fileName, "completed", r.get("request_index").intValue(), finishedMs,
                    requestCompleted(r, early, chunks == null ? null : chunks[i], cached, i, baseUrl, model, finishedMs)));
        }
        for (JsonNode f : failures) {
            int idx = f.get("request_index").intValue();
            String msg = textOrNull(f.get("error_message"));
            Boolean truncated = msg == null ? null : f.has("error_message_truncated")
                    && f.get("error_message_truncated").asBoolean(false);
            out.add(envelope(runId, fileName, "failed", idx, finishedMs, RequestFailed.newBuilder()
                    .setRequestIndex(idx).setPlannedContextTokens(planned[idx]).setTarget(baseUrl).setModel(model)
                    .setErrorType(f.get("error_type").textValue()).setErrorMessage(msg)
                    .setErrorMessageTruncated(truncated).setCompletedAtEpochMs(finishedMs).build()));
        }
        double wallMs = a.get("wall_clock_ms").doubleValue();
        Long numerator = null;
        Double rate = null;
        JsonNode outTok = metrics.get("output_tokens");
        if (outTok != null && outTok.isIntegralNumber()) {
            numerator = outTok.longValue();
            rate = doubleOrNull(metrics.get("throughput_tok_s"));
        } else if (metrics.get("content_chunks") != null && metrics.get("content_chunks").isIntegralNumber()) {
            numerator = metrics.get("content_chunks").longValue();
            rate = doubleOrNull(metrics.get("content_chunks_s"));
        }
        double wallS = ExactSecondsSolver.solveWall(wallMs, numerator, rate);
        out.add(envelope(runId, fileName, "finished", -1, finishedMs, RunFinished.newBuilder()
                .setWallClockNs(Math.round(wallS * 1e9)).setWallClockS(wallS)
                .setStartedAt(startedAt).setFinishedAt(finishedAt)
                .setStartedAtEpochMs(startedMs).setFinishedAtEpochMs(finishedMs)
                .setRequestsSent(rows.size() + failures.size()).build()));
        return out;
    }

    private static RunStarted runStarted(JsonNode a, int[] planned, String fileName, String startedAt, long startedMs) {
        JsonNode sf = a.get("serve_flags");
        boolean sfPresent = sf != null && sf.isObject();
        boolean burstFlag = sfPresent && sf.path("shared_prefix_burst").asBoolean(false);
        int concurrency = a.get("concurrency").intValue();
        List<Integer> plan = new ArrayList<>(planned.length);
        for (int p : planned) {
            plan.add(p);
        }
        Map<String, String> methodology = objectOrNull(a.get("timing_methodology"), LinkedHashMap::new, JsonNode::asText);
        RunStarted.Builder b = RunStarted.newBuilder()
                .setSchema$(a.get("schema").textValue())
                .setBaseUrl(a.get("base_url").textValue())
                .setModel(a.get("model").textValue())
                .setEngine(textOrNull(a.get("engine")))
                .setGpu(textOrNull(a.get("gpu")))
                .setTier(textOrNull(a.get("tier")))
                .setManifest(textOrNull(a.get("manifest")))
                .setSourceRecipe(textOrNull(a.get("source_recipe")))
                .setRequests(a.get("requests").intValue())
                .setConcurrency(concurrency)
                .setBurst(burstFlag ? concurrency : 0)
                .setSharedPrefixBurst(burstFlag)
                .setContextTokens(intOrNull(a.get("context_tokens")))
                .setContextSeed(a.path("context_seed").asLong(0))
                .setMaxContextTokens(intOrNull(a.get("max_context_tokens")))
                .setMaxTokens(a.get("max_tokens").intValue())
                .setThinkingMode(sfPresent ? sf.path("thinking_mode").asText("default") : "default")
                .setNoThinking(sfPresent && sf.path("no_thinking").asBoolean(false))
                .setReasoningEffort(sfPresent ? textOrNull(sf.get("reasoning_effort")) : null)
                .setServeFlagsPresent(sfPresent)
                .setServeFlagsHasReasoningEffort(sfPresent && sf.has("reasoning_effort"))
                .setPlannedContextTokens(plan)
                .setTimingMethodology(methodology)
                .setStartedAt(startedAt)
                .setStartedAtEpochMs(startedMs)
                .setOrigin(ORIGIN)
                .setSourceFile(fileName);
        return b.build();
    }

    private static RequestCompleted requestCompleted(JsonNode r, boolean early, Integer distributedChunks,
                                                     CachedTokens cached, int rowPos, String baseUrl, String model,
                                                     long finishedMs) {
        Long prompt = longOrNull(r.get("prompt_tokens"));
        Long out = longOrNull(r.get("output_tokens"));
        JsonNode ttfoNode = r.get("time_to_first_output_ms");
        Double ttfoMs = early || ttfoNode == null || ttfoNode.isNull() ? null : ttfoNode.doubleValue();
        JsonNode vis = r.get("visible_generation_ms");
        ExactSecondsSolver.RowSeconds s = ExactSecondsSolver.solveRow(new ExactSecondsSolver.RowTarget(
                ttfoMs, r.get("ttft_ms").doubleValue(), r.get("e2e_ms").doubleValue(),
                r.get("generation_ms").doubleValue(), vis == null || vis.isNull() ? null : vis.doubleValue(),
                doubleOrNull(r.get("effective_prefill_tok_s")), doubleOrNull(r.get("decode_tok_s")),
                doubleOrNull(r.get("mean_inter_token_latency_ms")), prompt, out));
        int contentChunks = r.has("content_chunks") ? r.get("content_chunks").intValue()
                : (distributedChunks == null ? 0 : distributedChunks);
        int reasoningChunks = r.has("reasoning_chunks") ? r.get("reasoning_chunks").intValue() : 0;
        return RequestCompleted.newBuilder()
                .setRequestIndex(r.get("request_index").intValue())
                .setPlannedContextTokens(r.get("planned_context_tokens").intValue())
                .setTarget(baseUrl)
                .setModel(model)
                .setTtfoNs(ttfoMs == null ? null : Math.round(s.ttfo() * 1e9))
                .setTtftNs(Math.round(s.ttft() * 1e9))
                .setE2eNs(Math.round(s.e2e() * 1e9))
                .setExactSeconds(ExactSeconds.newBuilder()
                        .setTtfoS(ttfoMs == null ? null : s.ttfo()).setTtftS(s.ttft()).setE2eS(s.e2e()).build())
                .setPromptTokens(prompt)
                .setCompletionTokens(out)
                .setCachedTokens(cached.cachedTokens(rowPos))
                .setExactCachedFraction(cached.exactFraction(rowPos))
                .setOutputTokenSource(r.get("output_token_source").textValue())
                .setContentChunks(contentChunks)
                .setReasoningChunks(reasoningChunks)
                .setCompletedAtEpochMs(finishedMs)
                .build();
    }

    /**
     * Planned context per request index: rows carry theirs; failed indices take what the
     * distribution has left (ascending values to ascending indices), else the most common
     * distribution value, else {@code context_tokens}, else 0.
     */
    static int[] plannedContexts(JsonNode a, List<JsonNode> rows, List<JsonNode> failures, int requests) {
        int[] planned = new int[Math.max(requests, 0)];
        TreeMap<Integer, Integer> left = new TreeMap<>();
        JsonNode dist = a.get("context_distribution");
        int fallback = a.path("context_tokens").asInt(0);
        int mostCommon = -1;
        int mostCount = 0;
        if (dist != null && dist.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = dist.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int v = Integer.parseInt(e.getKey());
                left.merge(v, e.getValue().intValue(), Integer::sum);
                if (e.getValue().intValue() > mostCount) {
                    mostCount = e.getValue().intValue();
                    mostCommon = v;
                }
            }
        }
        if (mostCommon >= 0) {
            fallback = mostCommon;
        }
        for (JsonNode r : rows) {
            int v = r.get("planned_context_tokens").intValue();
            planned[r.get("request_index").intValue()] = v;
            left.computeIfPresent(v, (k, n) -> n > 1 ? n - 1 : null);
        }
        for (JsonNode f : failures) {
            int idx = f.get("request_index").intValue();
            Map.Entry<Integer, Integer> first = left.firstEntry();
            if (first != null) {
                planned[idx] = first.getKey();
                left.computeIfPresent(first.getKey(), (k, n) -> n > 1 ? n - 1 : null);
            } else {
                planned[idx] = fallback;
            }
        }
        return planned;
    }

    /** Early-v3: split metrics.content_chunks over n rows (floor each, +1 for the first total mod n). */
    static int[] distributeContentChunks(JsonNode metrics, int n) {
        int[] out = new int[n];
        if (n == 0) {
            return out;
        }
        long total = metrics.path("content_chunks").asLong(0);
        long q = total / n;
        long r = total % n;
        for (int i = 0; i < n; i++) {
            out[i] = (int) (q + (i < r ? 1 : 0));
        }
        return out;
    }

    private static RunEvent envelope(String runId, String fileName, String kind, int index, long emittedMs, Object payload) {
        String name = "capstream-import|" + runId + "|" + fileName + "|" + kind + "|" + index;
        return RunEvent.newBuilder()
                .setRunId(runId)
                .setEventId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString())
                .setWorkerId(WORKER_ID)
                .setEmittedAtMs(emittedMs)
                .setPayload(payload)
                .build();
    }

    /** @return epoch ms of a {@code YYYY-MM-DDTHH:MM:SSZ} string, 0 when it does not parse */
    static long epochMs(String utc) {
        if (utc == null) {
            return 0;
        }
        try {
            return Instant.parse(utc).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    /**
     * @param n     a JSON node, possibly null
     * @param into  the map to fill (its kind sets the order)
     * @param value converts a field's value
     * @return {@code n}'s fields as key to converted value, in a new map from {@code into}; null when
     *         {@code n} is not an object
     */
    static <V, M extends Map<String, V>> M objectOrNull(JsonNode n, Supplier<M> into, Function<JsonNode, V> value) {
        if (n == null || !n.isObject()) {
            return null;
        }
        M out = into.get();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), value.apply(e.getValue()));
        }
        return out;
    }

    static String textOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    static Integer intOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.intValue();
    }

    static Long longOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.longValue();
    }

    static Double doubleOrNull(JsonNode n) {
        return n == null || n.isNull() || !n.isNumber() ? null : n.doubleValue();
    }
}

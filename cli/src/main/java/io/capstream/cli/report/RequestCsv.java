package io.capstream.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The per-request CSV of a report artifact ({@code --csv}, issue 13 item 4), written with
 * jackson-dataformat-csv (RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes
 * doubled; lines end in {@code \n}). One row per request, ordered by {@code request_index}:
 *
 * <ul>
 *   <li>the {@code request_timings} columns: every key of the row objects, in their order (the union
 *       over all rows, first seen first; {@code request_index} first when no row has it);</li>
 *   <li>{@code status} ({@code ok} for a timing row, {@code failed} for a {@code failures[]} entry,
 *       {@code cancelled} for a request the client cancelled on purpose, {@code capstream.cancelled.request_indices},
 *       issue 30; in an embeddings or rerank run, whose completed requests have no timing row, {@code ok} for each
 *       success of the timeline), {@code error_type} ({@code Cancelled} for cancelled rows), {@code error_message}
 *       (failure and cancelled rows have empty timing columns);</li>
 *   <li>{@value #START}, {@value #FIRST_TOKEN}, {@value #END}, {@value #QUEUE} (ms from the run's start)
 *       from {@code capstream.timeline} when the report has one, else empty;</li>
 *   <li>only when a report has conversations ({@code capstream.sessions.per_request}, issue 29):
 *       {@value #CONVERSATION_ID}, {@value #TURN} (1-based) and {@value #TOOL_CALLS} (tool calls in the answer;
 *       empty for failures), so that a single-turn run's CSV is unchanged.</li>
 *   <li>only when a report has HTTP phases ({@code capstream.statistics.http_phases.per_request}, issue 30): k6's
 *       {@code http_req_blocked}, {@code http_req_dns}, {@code http_req_connecting}, {@code http_req_tls_handshaking},
 *       {@code http_req_sending}, {@code http_req_waiting}, then {@code first_chunk} and {@code first_content}, ms,
 *       and {@code connection_reused} (empty for failures and for a phase not reached).</li>
 *   <li>only when a report has the server's view ({@code capstream.statistics.server_view}, issue 33): the
 *       {@link #SERVER_VIEW} columns (the ids sent and answered, the server's TTFT, its source and the client's
 *       first token minus it, llama.cpp's {@code prompt_ms}, {@code predicted_ms} and {@code cache_n}; empty for
 *       failures and where the response said nothing).</li>
 * </ul>
 *
 * <p>The header row is always written, even for a report without requests. Several runs (a sweep's
 * steps) go into one file with {@link #render(List)}: two leading columns {@code run_id} and
 * {@code step}. Stateless and thread-safe.
 */
public final class RequestCsv {
    /** Column: {@code ok}, {@code failed} or {@code cancelled}. */
    public static final String STATUS = "status";
    /** {@value #STATUS} of a request the client cancelled on purpose (issue 30, {@code --cancel-rate}). */
    public static final String CANCELLED = "cancelled";
    /** {@value #ERROR_TYPE} of a cancelled request (the events' error type). */
    public static final String CANCELLED_ERROR_TYPE = "Cancelled";
    /** Column: the failure's {@code error_type}, empty for successes. */
    public static final String ERROR_TYPE = "error_type";
    /** Column: the failure's {@code error_message}, empty for successes. */
    public static final String ERROR_MESSAGE = "error_message";
    /** Column: the request's start, ms after the run's start (timeline). */
    public static final String START = "start_ms";
    /** Column: start + TTFT, ms after the run's start (timeline); empty without content. */
    public static final String FIRST_TOKEN = "first_token_ms";
    /** Column: start + E2E (failures: start + elapsed), ms after the run's start (timeline). */
    public static final String END = "end_ms";
    /** Column: time the request waited in the client before it started, ms (timeline). */
    public static final String QUEUE = "queue_ms";
    /** Column (runs with conversations): the request's conversation id. */
    public static final String CONVERSATION_ID = "conversation_id";
    /** Column (runs with conversations): the request's turn in its conversation, 1-based. */
    public static final String TURN = "turn";
    /** Column (runs with conversations): tool calls in the answer. */
    public static final String TOOL_CALLS = "tool_calls";
    /** Leading column of {@link #render(List)}: the run id. */
    public static final String RUN_ID = "run_id";
    /** Leading column of {@link #render(List)}: the sweep step number. */
    public static final String STEP = "step";

    private static final String REQUEST_INDEX = "request_index";
    private static final List<String> TIMELINE = List.of(START, FIRST_TOKEN, END, QUEUE);
    private static final List<String> SESSION = List.of(CONVERSATION_ID, TURN, TOOL_CALLS);
    /** Columns (reports with HTTP phases, issue 30): each request's phases with k6's names, ms, and the reuse. */
    public static final List<String> PHASES = List.of("http_req_blocked", "http_req_dns", "http_req_connecting",
            "http_req_tls_handshaking", "http_req_sending", "http_req_waiting", "first_chunk", "first_content",
            "connection_reused");
    /**
     * Columns (reports with {@code capstream.statistics.server_view}, issue 33) to the server-view key each is read
     * from, in column order.
     */
    public static final Map<String, String> SERVER_VIEW = serverView();
    /** Quotes a field only when it needs it (a comma, quote, CR or LF), however long: like sweep.csv. */
    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();

    /**
     * One run of a multi-run CSV.
     *
     * @param runId    the run id; not null
     * @param step     the sweep step, or null
     * @param artifact the run's report artifact; not null
     */
    public record Run(String runId, Integer step, JsonNode artifact) {
    }

    private RequestCsv() {
    }

    private static Map<String, String> serverView() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String same : List.of("request_id", "trace_id", "response_id", "server_ttft_ms", "server_ttft_source",
                "client_minus_server_ttft_ms")) {
            m.put(same, same);
        }
        m.put("server_prompt_ms", "prompt_ms");
        m.put("server_predicted_ms", "predicted_ms");
        m.put("server_cache_n", "cache_n");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param artifact a report artifact ({@code anvil-serving.benchmark/v1} tree); not null
     * @return the CSV text, header first
     */
    public static String render(JsonNode artifact) {
        List<String> columns = columns(List.of(artifact), false);
        return write(columns, rows(artifact, columns, null));
    }

    /**
     * @param runs the runs, in the order their rows are written; not null
     * @return the CSV text with the leading {@code run_id} and {@code step} columns, header first
     */
    public static String render(List<Run> runs) {
        List<String> columns = columns(runs.stream().map(Run::artifact).toList(), true);
        List<Map<String, String>> rows = new ArrayList<>();
        for (Run r : runs) {
            rows.addAll(rows(r.artifact(), columns, r));
        }
        return write(columns, rows);
    }

    /** @return the header: [run_id, step,] timing keys, status columns, timeline columns */
    static List<String> columns(List<JsonNode> artifacts, boolean runColumns) {
        Set<String> timing = new LinkedHashSet<>();
        for (JsonNode a : artifacts) {
            for (JsonNode row : a.path("request_timings")) {
                row.fieldNames().forEachRemaining(timing::add);
            }
        }
        List<String> columns = new ArrayList<>();
        if (runColumns) {
            columns.add(RUN_ID);
            columns.add(STEP);
        }
        if (!timing.contains(REQUEST_INDEX)) {
            columns.add(REQUEST_INDEX);
        }
        for (String key : timing) {
            if (!columns.contains(key)) {
                columns.add(key);
            }
        }
        for (String c : List.of(STATUS, ERROR_TYPE, ERROR_MESSAGE)) {
            if (!columns.contains(c)) {
                columns.add(c);
            }
        }
        for (String c : TIMELINE) {
            if (!columns.contains(c)) {
                columns.add(c);
            }
        }
        if (artifacts.stream().anyMatch(a -> phaseRows(a).isObject())) {
            for (String c : PHASES) {
                if (!columns.contains(c)) {
                    columns.add(c);
                }
            }
        }
        if (artifacts.stream().anyMatch(a -> serverRows(a).isObject())) {
            for (String c : SERVER_VIEW.keySet()) {
                if (!columns.contains(c)) {
                    columns.add(c);
                }
            }
        }
        if (artifacts.stream().anyMatch(a -> perRequest(a).isObject())) {
            for (String c : SESSION) {
                if (!columns.contains(c)) {
                    columns.add(c);
                }
            }
        }
        return columns;
    }

    private static List<Map<String, String>> rows(JsonNode artifact, List<String> columns, Run run) {
        TreeMap<Integer, Map<String, String>> byIndex = new TreeMap<>();
        for (JsonNode t : artifact.path("request_timings")) {
            Map<String, String> row = new HashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = t.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                row.put(f.getKey(), text(f.getValue()));
            }
            row.put(STATUS, "ok");
            byIndex.put(t.path(REQUEST_INDEX).asInt(), row);
        }
        for (JsonNode f : artifact.path("failures")) {
            int index = f.path(REQUEST_INDEX).asInt();
            Map<String, String> row = new HashMap<>();
            row.put(REQUEST_INDEX, Integer.toString(index));
            row.put(STATUS, "failed");
            row.put(ERROR_TYPE, text(f.get(ERROR_TYPE)));
            row.put(ERROR_MESSAGE, text(f.get(ERROR_MESSAGE)));
            byIndex.putIfAbsent(index, row);
        }
        for (JsonNode i : artifact.path("capstream").path("cancelled").path("request_indices")) {
            Map<String, String> row = new HashMap<>();
            row.put(REQUEST_INDEX, Integer.toString(i.asInt()));
            row.put(STATUS, CANCELLED);
            row.put(ERROR_TYPE, CANCELLED_ERROR_TYPE);
            byIndex.putIfAbsent(i.asInt(), row);
        }
        boolean inputs = artifact.path("capstream").path("statistics").has("request_latency_ms");
        addTimeline(artifact.path("capstream").path("timeline"), byIndex, inputs);
        addSessions(perRequest(artifact), byIndex);
        addPhases(phaseRows(artifact), byIndex);
        addServerView(serverRows(artifact), byIndex);
        List<Map<String, String>> out = new ArrayList<>(byIndex.size());
        for (Map<String, String> row : byIndex.values()) {
            Map<String, String> ordered = new LinkedHashMap<>();
            for (String c : columns) {
                ordered.put(c, row.getOrDefault(c, ""));
            }
            if (run != null) {
                ordered.put(RUN_ID, run.runId());
                ordered.put(STEP, run.step() == null ? "" : run.step().toString());
            }
            out.add(ordered);
        }
        return out;
    }

    /**
     * Adds the timeline columns of each request the timeline lists (a columnar object of equal-length arrays).
     *
     * @param okWithoutRow an embeddings or rerank run (issue 30): its completed requests have no timing row, so the
     *                     timeline's successes get an {@code ok} row of their own
     */
    private static void addTimeline(JsonNode timeline, Map<Integer, Map<String, String>> byIndex,
                                    boolean okWithoutRow) {
        JsonNode indices = timeline.path(REQUEST_INDEX);
        if (!indices.isArray()) {
            return;
        }
        for (int i = 0; i < indices.size(); i++) {
            Map<String, String> row = byIndex.get(indices.get(i).asInt());
            if (row == null && okWithoutRow && timeline.path("error_type").path(i).isNull()) {
                row = new HashMap<>();
                row.put(REQUEST_INDEX, Integer.toString(indices.get(i).asInt()));
                row.put(STATUS, "ok");
                byIndex.put(indices.get(i).asInt(), row);
            }
            if (row == null) {
                continue;
            }
            for (String c : TIMELINE) {
                row.put(c, text(timeline.path(c).get(i)));
            }
        }
    }

    /** @return the artifact's {@code capstream.statistics.http_phases.per_request}, a missing node when none */
    private static JsonNode phaseRows(JsonNode artifact) {
        return artifact.path("capstream").path("statistics").path("http_phases").path("per_request");
    }

    /** Adds the phase columns of each request the phase rows list (columnar); a negative (missing) phase is empty. */
    private static void addPhases(JsonNode rows, Map<Integer, Map<String, String>> byIndex) {
        JsonNode indices = rows.path(REQUEST_INDEX);
        if (!indices.isArray()) {
            return;
        }
        for (int i = 0; i < indices.size(); i++) {
            Map<String, String> row = byIndex.get(indices.get(i).asInt());
            if (row == null) {
                continue;
            }
            for (String c : PHASES) {
                JsonNode v = rows.path(c).get(i);
                row.put(c, v != null && v.isNumber() && v.asDouble() < 0 ? "" : text(v));
            }
        }
    }

    /** @return the artifact's {@code capstream.statistics.server_view}, a missing node when none */
    private static JsonNode serverRows(JsonNode artifact) {
        return artifact.path("capstream").path("statistics").path("server_view");
    }

    /** Adds the {@link #SERVER_VIEW} columns of each request the server-view rows list (columnar). */
    private static void addServerView(JsonNode rows, Map<Integer, Map<String, String>> byIndex) {
        JsonNode indices = rows.path(REQUEST_INDEX);
        for (int i = 0; i < indices.size(); i++) {
            Map<String, String> row = byIndex.get(indices.get(i).asInt());
            if (row != null) {
                for (Map.Entry<String, String> c : SERVER_VIEW.entrySet()) {
                    row.put(c.getKey(), text(rows.path(c.getValue()).get(i)));
                }
            }
        }
    }

    /** @return the artifact's {@code capstream.sessions.per_request}, a missing node when it has none */
    private static JsonNode perRequest(JsonNode artifact) {
        return artifact.path("capstream").path("sessions").path("per_request");
    }

    /** Adds the conversation columns of each request {@code per_request} lists (columnar, like the timeline). */
    private static void addSessions(JsonNode perRequest, Map<Integer, Map<String, String>> byIndex) {
        JsonNode indices = perRequest.path(REQUEST_INDEX);
        if (!indices.isArray()) {
            return;
        }
        JsonNode ids = perRequest.path("conversation_ids");
        for (int i = 0; i < indices.size(); i++) {
            Map<String, String> row = byIndex.get(indices.get(i).asInt());
            if (row == null) {
                continue;
            }
            JsonNode conversation = perRequest.path("conversation").get(i);
            row.put(CONVERSATION_ID, conversation == null || !conversation.isInt() ? ""
                    : text(ids.get(conversation.asInt())));
            row.put(TURN, text(perRequest.path(TURN).get(i)));
            row.put(TOOL_CALLS, text(perRequest.path(TOOL_CALLS).get(i)));
        }
    }

    private static String text(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "";
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }

    private static String write(List<String> columns, List<Map<String, String>> rows) {
        CsvSchema.Builder b = CsvSchema.builder();
        columns.forEach(b::addColumn);
        CsvSchema schema = b.build().withHeader();
        StringWriter sw = new StringWriter();
        try (SequenceWriter w = MAPPER.writer(schema).writeValues(sw)) {
            // the header is written even when there is no row
            for (Map<String, String> row : rows) {
                w.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }
}

package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tables of a run's page, read from its report artifact: summary, latency percentiles, SLOs, load
 * health, configuration, client self-check and the first failures. Each method returns rows of text
 * cells; missing keys give empty cells or no rows. Stateless.
 */
final class RunTables {
    /** Header of a key/value table. */
    static final List<String> KEY_VALUE = List.of("key", "value");
    /** Header of the latency table. */
    static final List<String> LATENCY_HEADER = List.of("metric", "count", "mean (ms)", "p50 (ms)", "p90 (ms)",
            "p95 (ms)", "p99 (ms)", "max (ms)");
    /** Top-level keys shown as the run's configuration (objects flattened with dotted keys). */
    static final List<String> CONFIG_KEYS = List.of("schema", "measurement_protocol", "run_id", "base_url", "model",
            "engine", "gpu", "tier", "manifest", "source_recipe", "concurrency", "context_tokens", "context_seed",
            "context_distribution", "max_context_tokens", "max_tokens", "serve_flags", "timing_methodology");
    private static final Set<String> CLIENT_FLAGS = Set.of("warnings", "distorted");

    private RunTables() {
    }

    /**
     * @param a the artifact
     * @return the summary rows: counts, load, context, wall clock, throughput
     */
    static List<List<String>> summary(JsonNode a) {
        JsonNode c = a.path("capstream");
        JsonNode run = c.path("run");
        JsonNode stats = c.path("statistics");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("requests", Fmt.value(a.get("requests"))));
        rows.add(List.of("completed", Fmt.value(a.get("completed"))));
        rows.add(List.of("failed", Fmt.value(a.get("failed"))));
        String arrival = run.path("arrival").asText("closed");
        if (!arrival.isEmpty() && !"closed".equals(arrival)) {
            rows.add(List.of("arrival", arrival));
            rows.add(List.of("rate (req/s)", Fmt.value(run.get("rate_rps"))));
            if (run.path("max_in_flight").isNumber()) {
                rows.add(List.of("max in flight", Fmt.value(run.get("max_in_flight"))));
            }
        } else {
            rows.add(List.of("concurrency", Fmt.value(a.get("concurrency"))));
        }
        rows.add(List.of("context (tokens)", context(a)));
        rows.add(List.of("max_tokens", Fmt.value(a.get("max_tokens"))));
        JsonNode wall = a.get("wall_clock_ms");
        rows.add(List.of("wall clock (s)", wall != null && wall.isNumber() ? Fmt.number(wall.doubleValue() / 1000) : ""));
        JsonNode rps = stats.get("request_throughput_rps");
        if ((rps == null || !rps.isNumber()) && wall != null && wall.isNumber() && wall.doubleValue() > 0) {
            rows.add(List.of("request throughput (req/s)",
                    Fmt.number(a.path("completed").asDouble() / (wall.doubleValue() / 1000))));
        } else {
            rows.add(List.of("request throughput (req/s)", Fmt.value(rps)));
        }
        JsonNode tok = stats.get("output_throughput_tok_s");
        rows.add(List.of("output throughput (tokens/s)",
                Fmt.value(tok != null && tok.isNumber() ? tok : a.path("metrics").get("throughput_tok_s"))));
        if (stats.path("total_token_throughput_tok_s").isNumber()) {
            rows.add(List.of("total token throughput (tokens/s)", Fmt.value(stats.get("total_token_throughput_tok_s"))));
        }
        rows.add(List.of("started at", Fmt.value(a.get("started_at"))));
        rows.add(List.of("finished at", Fmt.value(a.get("finished_at"))));
        if (c.has("kind")) {
            rows.add(List.of("report kind", Fmt.value(c.get("kind"))));
        }
        if (c.has("complete")) {
            rows.add(List.of("complete", Fmt.value(c.get("complete"))));
        }
        return rows;
    }

    /**
     * Latency percentiles: capstream.statistics when present, else the anvil metrics' p50/p95.
     *
     * @param a the artifact
     * @return rows of {@link #LATENCY_HEADER}
     */
    static List<List<String>> latency(JsonNode a) {
        JsonNode stats = a.path("capstream").path("statistics");
        List<List<String>> rows = new ArrayList<>();
        String[][] names = {
            {"TTFT", "ttft_ms", "ttft"},
            {"TTFO (time to first output)", "ttfo_ms", "time_to_first_output"},
            {"E2E", "e2e_ms", "e2e"},
            {"ITL (per-request mean)", "itl_ms", "mean_inter_token_latency_ms"},
            {"inter-chunk (per token)", "inter_chunk_ms", null},
        };
        for (String[] n : names) {
            JsonNode d = stats.path(n[1]);
            if (d.isObject()) {
                rows.add(List.of(n[0], Fmt.value(d.get("count")), Fmt.value(d.get("mean")), Fmt.value(d.get("p50")),
                        Fmt.value(d.get("p90")), Fmt.value(d.get("p95")), Fmt.value(d.get("p99")),
                        Fmt.value(d.get("max"))));
            } else if (n[2] != null) {
                JsonNode m = a.path("metrics");
                String p50 = n[2].endsWith("_ms") ? n[2] + "_p50" : n[2] + "_p50_ms";
                String p95 = n[2].endsWith("_ms") ? n[2] + "_p95" : n[2] + "_p95_ms";
                if (m.has(p50) || m.has(p95)) {
                    rows.add(List.of(n[0], "", "", Fmt.value(m.get(p50)), "", Fmt.value(m.get(p95)), "", ""));
                }
            }
        }
        return rows;
    }

    /**
     * @param slo capstream.slo
     * @return one row per SLO: SLO, observed, met, attainment
     */
    static List<List<String>> slos(JsonNode slo) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode s : slo.path("slos")) {
            JsonNode met = s.get("met");
            rows.add(List.of(Fmt.value(s.get("slo")), Fmt.value(s.get("metric")), Fmt.value(s.get("threshold")),
                    Fmt.value(s.get("observed")), met == null || met.isNull() ? "" : (met.asBoolean() ? "yes" : "NO"),
                    Fmt.percent(s.get("attainment"))));
        }
        return rows;
    }

    /**
     * @param slo capstream.slo
     * @return the goodput sentence
     */
    static String goodput(JsonNode slo) {
        String rps = Fmt.value(slo.get("goodput_rps"));
        return "Goodput: " + (slo.path("goodput").isNumber() ? Fmt.percent(slo.get("goodput")) : "n/a")
                + " of requests met every SLO" + (rps.isEmpty() ? "" : " (" + rps + " req/s)")
                + "; all SLOs met: " + (slo.path("met_all").asBoolean() ? "yes" : "no") + ".";
    }

    /**
     * The run's configuration: {@link #CONFIG_KEYS} and capstream.run, origin, version and sweep step.
     *
     * @param a the artifact
     * @return key/value rows
     */
    static List<List<String>> config(JsonNode a) {
        List<List<String>> rows = new ArrayList<>();
        for (String k : CONFIG_KEYS) {
            if (a.has(k)) {
                flatten(k, a.get(k), rows);
            }
        }
        JsonNode c = a.path("capstream");
        for (String k : List.of("origin", "capstream_version")) {
            if (c.has(k)) {
                flatten("capstream." + k, c.get(k), rows);
            }
        }
        if (c.path("run").isObject()) {
            flatten("capstream.run", c.get("run"), rows);
        }
        if (c.path("sweep").isObject()) {
            flatten("capstream.sweep", c.get("sweep"), rows);
        }
        return rows;
    }

    /**
     * @param node an object (capstream.load, capstream.client)
     * @return its keys flattened, without the client's warnings/distorted flags
     */
    static List<List<String>> keyValues(JsonNode node) {
        List<List<String>> rows = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!CLIENT_FLAGS.contains(e.getKey())) {
                flatten(e.getKey(), e.getValue(), rows);
            }
        }
        return rows;
    }

    /**
     * @param failures the artifact's failures
     * @param max      the most rows
     * @return request index, error type and the cause in capstream's words ({@link
     *         io.capstream.schemas.text.FailureWording}) of the first failures
     */
    static List<List<String>> firstFailures(JsonNode failures, int max) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode f : failures) {
            if (rows.size() >= max) {
                break;
            }
            // the cause in capstream's words; the artifact keeps the reference's error_message
            JsonNode type = f.get("error_type");
            JsonNode message = f.get("error_message");
            String msg = io.capstream.schemas.text.FailureWording.of(type == null || !type.isTextual() ? null
                    : type.asText(), message == null || !message.isTextual() ? null : message.asText());
            if (msg.length() > 500) {
                msg = msg.substring(0, 500) + "...";
            }
            rows.add(List.of(Fmt.value(f.get("request_index")), Fmt.value(f.get("error_type")), msg));
        }
        return rows;
    }

    private static void flatten(String key, JsonNode v, List<List<String>> rows) {
        if (v != null && v.isObject() && !v.isEmpty()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(key + "." + e.getKey(), e.getValue(), rows);
            }
        } else {
            rows.add(List.of(key, Fmt.value(v)));
        }
    }

    /**
     * @param a the artifact
     * @return the fixed {@code context_tokens}, or for a sampled plan the range of {@code context_distribution}
     *     ({@code "sampled: 16000 to 31680 (2 values)"}); empty when the report has neither
     */
    static String context(JsonNode a) {
        JsonNode fixed = a.get("context_tokens");
        if (fixed != null && fixed.isNumber()) {
            return Fmt.value(fixed);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int values = 0;
        for (Iterator<String> it = a.path("context_distribution").fieldNames(); it.hasNext(); ) {
            String key = it.next();
            try {
                long v = Long.parseLong(key);
                min = Math.min(min, v);
                max = Math.max(max, v);
                values++;
            } catch (NumberFormatException e) {
                // not a token count: ignored
            }
        }
        if (values == 0) {
            return "";
        }
        return values == 1 ? Long.toString(min) : "sampled: " + min + " to " + max + " (" + values + " values)";
    }
}

package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.report.Origins;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
    /** Shown in the Measurement section, not with the target. */
    private static final Set<String> MEASUREMENT_KEYS = Set.of("schema", "measurement_protocol", "timing_methodology");
    /** The clock capstream's client stamps request times with. */
    static final String CAPSTREAM_CLOCK = "System.nanoTime() (the JVM's monotonic clock, ns resolution)";
    private static final Map<String, FieldRows.Label> CONFIG_LABELS = labels(
            "measurement_protocol", "measurement protocol", "",
            "run_id", "run id", "",
            "base_url", "base URL", "",
            "gpu", "GPU", "",
            "source_recipe", "source recipe", "",
            "concurrency", "concurrency", "requests in flight",
            "context_tokens", "context", "tokens",
            "context_seed", "context seed", "",
            "max_context_tokens", "model context window", "tokens",
            "max_tokens", "max_tokens (output cap)", "tokens");
    private static final Map<String, FieldRows.Label> RUN_LABELS = labels(
            "burst", "burst", "requests",
            "expected_workers", "workers", "",
            "header_names", "extra headers", "",
            "keep_alive", "keep-alive", "",
            "margin_tokens", "context margin", "tokens",
            "max_in_flight", "max in flight", "requests",
            "rate_rps", "rate", "req/s",
            "input_tokens_mean", "input tokens (mean)", "tokens",
            "input_tokens_stddev", "input tokens (std dev)", "tokens",
            "output_tokens_mean", "output tokens (mean)", "tokens",
            "output_tokens_stddev", "output tokens (std dev)", "tokens",
            "ramp_up_s", "ramp-up", "s",
            "extra_body", "extra body", "",
            "dataset_sha256", "dataset SHA-256", "");
    private static final Map<String, FieldRows.Label> LOAD_LABELS = labels(
            "arrival", "arrival", "",
            "offered_concurrency", "offered concurrency", "requests in flight",
            "achieved_concurrency", "achieved concurrency (mean in flight)", "requests in flight",
            "offered_rate_rps", "offered rate", "req/s",
            "scheduled_rate_rps", "scheduled rate", "req/s",
            "achieved_rate_rps", "achieved rate", "req/s",
            "behind_schedule", "behind schedule", "",
            "queue_p50_ms", "client queue p50 (start − scheduled start)", "ms",
            "queue_p99_ms", "client queue p99", "ms",
            "queue_max_ms", "client queue max", "ms",
            "interrupted", "interrupted", "",
            "interarrival_cv", "inter-arrival CV (achieved, stddev / mean of the start gaps)", "",
            "configured_interarrival_cv", "inter-arrival CV (configured)", "",
            "steady_state.start_s", "start", "s after T0",
            "steady_state.end_s", "end", "s after T0",
            "steady_state.requests", "completed requests ending in it", "",
            "steady_state.request_throughput_rps", "request throughput", "req/s",
            "steady_state.output_throughput_tok_s", "output throughput", "tokens/s",
            "steady_state.achieved_concurrency", "achieved concurrency", "requests in flight",
            "steady_state.ttft_p50_ms", "TTFT p50", "ms",
            "steady_state.ttft_p95_ms", "TTFT p95", "ms");
    private static final Map<String, FieldRows.Label> CLIENT_LABELS = labels(
            "delay_p50_ms", "event-loop delay p50", "ms",
            "delay_p99_ms", "event-loop delay p99", "ms",
            "delay_max_ms", "event-loop delay max", "ms",
            "delay_samples", "event-loop time probed", "ms",
            "cpu_cores", "CPU cores", "",
            "cpu_process_ms", "process CPU", "ms",
            "cpu_event_loops_ms", "event-loop CPU", "ms",
            "cpu_event_loop_busy_max", "busiest event loop's busy share", "1 = a full core",
            "cpu_machine_busy", "machine busy share", "1 = every core",
            "cpu_ms_per_1000_chunks", "event-loop CPU per 1,000 chunks", "ms",
            "stream_chunks", "stream chunks", "chunks",
            "gc_collector", "GC collector", "",
            "gc_pauses", "GC pauses", "pauses",
            "gc_pause_ms", "GC pause time", "ms",
            "gc_pause_max_ms", "longest GC pause", "ms",
            "gc_concurrent_ms", "concurrent GC time", "ms",
            "in_flight_max", "most requests in flight", "requests",
            "in_flight_mean", "mean requests in flight", "requests",
            "queue_p50_ms", "client queue p50 (start − scheduled start)", "ms",
            "queue_p99_ms", "client queue p99", "ms",
            "queue_max_ms", "client queue max", "ms",
            "warmup_loopback_requests", "warm-up: loopback requests", "requests",
            "warmup_loopback_ms", "warm-up: loopback time", "ms",
            "warmup_loopback_first_us_per_request", "warm-up: first loopback batch", "µs per request",
            "warmup_loopback_last_us_per_request", "warm-up: last loopback batch", "µs per request",
            "warmup_target_requests", "warm-up: requests to the target", "requests",
            "warmup_target_failed", "warm-up: failed requests to the target", "requests",
            "event_delivery", "event delivery", "");

    private RunTables() {
    }

    private static Map<String, FieldRows.Label> labels(String... keyLabelUnit) {
        Map<String, FieldRows.Label> m = new LinkedHashMap<>();
        for (int i = 0; i < keyLabelUnit.length; i += 3) {
            m.put(keyLabelUnit[i], new FieldRows.Label(keyLabelUnit[i + 1], keyLabelUnit[i + 2]));
        }
        return m;
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
     * Latency percentiles: capstream.statistics when present (each with its 95% interval, {@link Fmt#percentile}),
     * else the anvil metrics' p50/p95; the request latency of an embeddings or rerank run (issue 30) only when the
     * report has it.
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
            {"request latency (embeddings, rerank)", "request_latency_ms", null},
        };
        for (String[] n : names) {
            JsonNode d = stats.path(n[1]);
            if (d.isObject()) {
                rows.add(List.of(n[0], Fmt.value(d.get("count")), Fmt.value(d.get("mean")), Fmt.percentile(d, "p50"),
                        Fmt.percentile(d, "p90"), Fmt.percentile(d, "p95"), Fmt.percentile(d, "p99"),
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
     * The run's configuration as labelled sections (each rows of [label, value, unit], empty values left
     * out): "Target and workload" ({@link #CONFIG_KEYS}), "Load generator settings" (capstream.run),
     * "Sweep step" (capstream.sweep) and "Measurement" (schema, protocol, the clock, timing methodology,
     * origin and version). The clock row names capstream's own clock, {@code System.nanoTime()}, unless the
     * report was imported: the artifact's {@code timing_methodology.clock} keeps the reference's text
     * ({@code client time.perf_counter}) for parity (spec §9.2), which is not the clock capstream measured with.
     *
     * @param a the artifact
     * @return section title to rows, in display order; sections without rows are absent
     */
    static Map<String, List<List<String>>> config(JsonNode a) {
        Map<String, List<List<String>>> sections = new LinkedHashMap<>();
        List<List<String>> target = new ArrayList<>();
        for (String k : CONFIG_KEYS) {
            if ("context_distribution".equals(k)) {
                String d = distribution(a.get(k));
                if (!d.isEmpty()) {
                    target.add(List.of("planned contexts", d, "tokens × requests"));
                }
            } else {
                FieldRows.add(k, "", a.get(k), CONFIG_LABELS, MEASUREMENT_KEYS, target);
            }
        }
        put(sections, "Target and workload", target);
        JsonNode c = a.path("capstream");
        put(sections, "Load generator settings", FieldRows.of(c.get("run"), RUN_LABELS, Set.of()));
        put(sections, "Sweep step", FieldRows.of(c.get("sweep"), Map.of(), Set.of()));
        List<List<String>> measurement = new ArrayList<>();
        for (String k : List.of("schema", "measurement_protocol")) {
            FieldRows.add(k, "", a.get(k), CONFIG_LABELS, Set.of(), measurement);
        }
        measurement.add(List.of("clock", clock(a), ""));
        FieldRows.add("", "timing methodology: ", a.get("timing_methodology"), Map.of(), Set.of("clock"), measurement);
        FieldRows.add("origin", "", c.get("origin"), Map.of(), Set.of(), measurement);
        FieldRows.add("capstream_version", "", c.get("capstream_version"),
                Map.of("capstream_version", new FieldRows.Label("capstream version", "")), Set.of(), measurement);
        put(sections, "Measurement", measurement);
        return sections;
    }

    /**
     * @param a the artifact
     * @return the clock the times were measured with: capstream's {@code System.nanoTime()}, or for an
     *     imported report the artifact's own {@code timing_methodology.clock}
     */
    static String clock(JsonNode a) {
        String own = a.path("timing_methodology").path("clock").asText("");
        if (Origins.IMPORT.equals(a.path("capstream").path("origin").asText(""))) {
            return own.isEmpty() ? "unknown (imported report)" : own + " (imported report: the reference's clock)";
        }
        return CAPSTREAM_CLOCK;
    }

    /**
     * @param d context_distribution ({"256": 80, ...})
     * @return e.g. {@code "256 × 80, 1,024 × 20"}, or "" when absent
     */
    private static String distribution(JsonNode d) {
        List<String> parts = new ArrayList<>();
        if (d != null && d.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = d.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String tokens;
                try {
                    tokens = String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(e.getKey()));
                } catch (NumberFormatException ex) {
                    tokens = e.getKey();
                }
                parts.add(tokens + " × " + Fmt.value(e.getValue()));
            }
        }
        return String.join(", ", parts);
    }

    private static void put(Map<String, List<List<String>>> sections, String title, List<List<String>> rows) {
        if (!rows.isEmpty()) {
            sections.put(title, rows);
        }
    }

    /**
     * @param load capstream.load
     * @return its labelled rows (empty values left out)
     */
    static List<List<String>> load(JsonNode load) {
        return FieldRows.of(load, LOAD_LABELS, Set.of("stages"));
    }

    /**
     * @param client capstream.client
     * @return its labelled rows, without the warnings and the distorted flag (shown above the table)
     */
    static List<List<String>> client(JsonNode client) {
        return FieldRows.of(client, CLIENT_LABELS, CLIENT_FLAGS);
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

package io.capstream.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * Renders the readable summary of a capacity artifact (spec §8, §9): run, target, completed and
 * failed counts, the p50/p95 of TTFT, time to first output, E2E, inter-token latency and decode
 * rate, throughput and the measurement protocol label, then the first failures.
 */
public final class SummaryTable {
    private static final int MAX_FAILURES_SHOWN = 10;

    private SummaryTable() {
    }

    /**
     * @param artifact the parsed artifact ({@code anvil-serving.benchmark/v1}); never null
     * @return the table text, lines ending in {@code \n}
     */
    public static String render(JsonNode artifact) {
        StringBuilder sb = new StringBuilder();
        JsonNode m = artifact.path("metrics");
        line(sb, "run", text(artifact, "run_id"));
        line(sb, "target", text(artifact, "base_url") + "  model " + text(artifact, "model")
                + "  engine " + text(artifact, "engine"));
        line(sb, "protocol", text(artifact, "measurement_protocol"));
        line(sb, "requests", artifact.path("requests").asInt() + "  completed " + artifact.path("completed").asInt()
                + "  failed " + artifact.path("failed").asInt() + "  concurrency " + artifact.path("concurrency").asInt());
        line(sb, "wall clock", fmt(artifact.path("wall_clock_ms"), " ms"));
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "%-26s %14s %14s%n", "metric", "p50", "p95"));
        row(sb, m, "TTFT (ms)", "ttft_p50_ms", "ttft_p95_ms");
        row(sb, m, "time to first output (ms)", "time_to_first_output_p50_ms", "time_to_first_output_p95_ms");
        row(sb, m, "E2E (ms)", "e2e_p50_ms", "e2e_p95_ms");
        row(sb, m, "inter-token latency (ms)", "mean_inter_token_latency_ms_p50", "mean_inter_token_latency_ms_p95");
        row(sb, m, "decode (tok/s)", "decode_tok_s_p50", "decode_tok_s_p95");
        row(sb, m, "effective prefill (tok/s)", "effective_prefill_tok_s_p50", "effective_prefill_tok_s_p95");
        row(sb, m, "prompt tokens", "prompt_tokens_p50", "prompt_tokens_p95");
        sb.append('\n');
        line(sb, "throughput", fmt(m.path("throughput_tok_s"), " tok/s") + "  (output tokens "
                + text(m, "output_tokens") + ")");
        if (!m.path("prefix_cache_hit_avg").isMissingNode() && !m.path("prefix_cache_hit_avg").isNull()) {
            line(sb, "prefix cache hit", String.format(Locale.ROOT, "%.1f %%", m.path("prefix_cache_hit_avg").asDouble() * 100));
        }
        clientCheck(sb, artifact.path("capstream").path("client"));
        JsonNode failures = artifact.path("failures");
        if (failures.isArray() && failures.size() > 0) {
            sb.append("\nfailures:\n");
            int shown = 0;
            for (JsonNode f : failures) {
                if (shown++ == MAX_FAILURES_SHOWN) {
                    sb.append("  ... ").append(failures.size() - MAX_FAILURES_SHOWN).append(" more in the report\n");
                    break;
                }
                sb.append(String.format(Locale.ROOT, "  #%-5d %-15s %s%n", f.path("request_index").asInt(),
                        f.path("error_type").asText(), f.path("error_message").asText("")));
            }
        }
        return sb.toString();
    }

    /**
     * The generator's self-check ({@code capstream.client}): event-loop delay, CPU, GC, achieved
     * concurrency, client queueing and warm-up, then one warning line when the client may have
     * distorted the numbers. Nothing when the report has no self-check (imports, replays).
     */
    private static void clientCheck(StringBuilder sb, JsonNode c) {
        if (!c.isObject()) {
            return;
        }
        line(sb, "client check", String.format(Locale.ROOT, "loop delay p50 %s / p99 %s / max %s ms, CPU process %s ms,"
                        + " event loops %s ms (%s per 1,000 chunks), GC pauses %d (max %.1f ms)",
                num(c.path("delay_p50_ms")), num(c.path("delay_p99_ms")), num(c.path("delay_max_ms")),
                num0(c.path("cpu_process_ms")), num0(c.path("cpu_event_loops_ms")), num(c.path("cpu_ms_per_1000_chunks")),
                c.path("gc_pauses").asLong(), c.path("gc_pause_max_ms").asDouble()));
        line(sb, "", String.format(Locale.ROOT, "achieved concurrency %s (max %d), client queue before t0 p99 %s ms,"
                        + " warm-up %,d loopback + %d target requests, events %s",
                num(c.path("in_flight_mean")), c.path("in_flight_max").asInt(), num(c.path("queue_p99_ms")),
                c.path("warmup_loopback_requests").asInt(), c.path("warmup_target_requests").asInt(),
                c.path("event_delivery").asText("live")));
        if (c.path("distorted").asBoolean(false)) {
            StringBuilder w = new StringBuilder();
            c.path("warnings").forEach(x -> w.append(w.length() == 0 ? "" : "; ").append(x.asText()));
            sb.append("warning: the client may have distorted these numbers: ").append(w).append('\n');
        }
    }

    private static String num(JsonNode n) {
        return n == null || n.isMissingNode() || n.isNull() ? "-" : String.format(Locale.ROOT, "%.1f", n.asDouble());
    }

    private static String num0(JsonNode n) {
        return n == null || n.isMissingNode() || n.isNull() ? "-" : String.format(Locale.ROOT, "%.0f", n.asDouble());
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, value));
    }

    private static void row(StringBuilder sb, JsonNode m, String label, String p50, String p95) {
        sb.append(String.format(Locale.ROOT, "%-26s %14s %14s%n", label, fmt(m.path(p50), ""), fmt(m.path(p95), "")));
    }

    private static String fmt(JsonNode n, String unit) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f%s", n.asDouble(), unit);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isMissingNode() || v.isNull() ? "-" : v.asText();
    }
}

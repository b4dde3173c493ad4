package io.capstream.cli.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * What a run's report says the client measured, beside what llama-server itself counted during the run: the
 * increases of its Prometheus counters ({@code --metrics}) that the report's {@code capstream.server_metrics} kept
 * (baseline scrape before T0, final scrape after the slowest request). llama-server counts per request its prompt
 * (prefill) time and its generation time; every request's client TTFT contains its prefill, so the client's sum of
 * TTFT can never be below the server's prompt seconds.
 *
 * @param requests             rows of the report (completed requests)
 * @param clientOutputTokens   sum of the rows' {@code output_tokens} (from {@code usage})
 * @param clientPromptTokens   sum of the rows' {@code prompt_tokens} (from {@code usage})
 * @param clientTtftMs         sum of the rows' {@code ttft_ms}
 * @param clientGenerationMs   sum of the rows' {@code generation_ms} (first output to the end of the stream)
 * @param serverOutputTokens   increase of {@code llamacpp:tokens_predicted_total}
 * @param serverPromptTokens   increase of {@code llamacpp:prompt_tokens_total} (tokens it prefilled, cache hits
 *                             excluded)
 * @param serverCachedTokens   increase of {@code llamacpp:prompt_tokens_cached_total} (tokens reused from its cache)
 * @param serverPromptMs       increase of {@code llamacpp:prompt_seconds_total}, in ms
 * @param serverPredictedMs    increase of {@code llamacpp:tokens_predicted_seconds_total}, in ms
 */
record ServerTruth(int requests, long clientOutputTokens, long clientPromptTokens, double clientTtftMs,
        double clientGenerationMs, long serverOutputTokens, long serverPromptTokens, long serverCachedTokens,
        double serverPromptMs, double serverPredictedMs) {

    /**
     * @param report a run's report, written with {@code --server-metrics} scraping llama-server's {@code /metrics}
     * @return its client sums and the server's counter increases; a counter the report does not have is negative
     */
    static ServerTruth of(JsonNode report) {
        long out = 0;
        long prompt = 0;
        double ttft = 0;
        double gen = 0;
        int n = 0;
        for (JsonNode r : report.path("request_timings")) {
            n++;
            out += r.path("output_tokens").asLong();
            prompt += r.path("prompt_tokens").asLong();
            ttft += r.path("ttft_ms").asDouble();
            gen += r.path("generation_ms").asDouble();
        }
        JsonNode s = report.path("capstream").path("server_metrics").path("series");
        return new ServerTruth(n, out, prompt, ttft, gen, Math.round(increase(s, "generation_tokens")),
                Math.round(increase(s, "prompt_tokens")), Math.round(increase(s, "prefix_cache_hit_tokens")),
                increase(s, "llamacpp:prompt_seconds_total") * 1000.0,
                increase(s, "llamacpp:tokens_predicted_seconds_total") * 1000.0);
    }

    /** @return the series' increase over the run, or -1 when the report has no such series */
    private static double increase(JsonNode series, String name) {
        return series.has(name) ? series.path(name).path("increase").asDouble() : -1;
    }

    /** @return the client's mean TTFT, ms */
    double clientTtftMeanMs() {
        return clientTtftMs / requests;
    }

    /** @return the server's mean prompt (prefill) time per request, ms */
    double serverPromptMeanMs() {
        return serverPromptMs / requests;
    }

    /** @return the client's decode rate over the run: output tokens after the first per second of generation */
    double clientDecodeTokS() {
        return (clientOutputTokens - requests) / (clientGenerationMs / 1000.0);
    }

    /** @return llama-server's own generation rate over the run: predicted tokens per second of predicting */
    double serverDecodeTokS() {
        return serverOutputTokens / (serverPredictedMs / 1000.0);
    }

    /** @return one line for the test's output (the figures a report quotes) */
    String line(String label) {
        return String.format(Locale.ROOT, "%-9s %2d requests | client TTFT mean %7.1f ms, decode %7.1f tok/s, prompt %5d,"
                        + " output %4d tokens | llama-server prompt mean %7.1f ms, decode %7.1f tok/s, prompt %5d + cached %5d,"
                        + " output %4d tokens", label, requests, clientTtftMeanMs(), clientDecodeTokS(), clientPromptTokens,
                clientOutputTokens, serverPromptMeanMs(), serverDecodeTokS(), serverPromptTokens, serverCachedTokens,
                serverOutputTokens);
    }
}

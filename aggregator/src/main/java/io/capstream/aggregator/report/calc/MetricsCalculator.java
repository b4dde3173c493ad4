package io.capstream.aggregator.report.calc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestCompleted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@code metrics} object (spec §8.2) from the rows and the successful requests.
 *
 * <p>Percentiles (nearest rank, §8.1) run over the row columns, so results that failed the §7
 * validity filter are excluded from them; sums, {@code output_token_sources} and the cache average
 * run over every successful request (failed requests never count, §6).
 */
public final class MetricsCalculator {
    private MetricsCalculator() {
    }

    /**
     * Computed metric values; boxed fields are null exactly when spec §8.2 says so.
     *
     * @param ttfoP50Ms time_to_first_output_p50_ms
     * @param ttfoP95Ms time_to_first_output_p95_ms
     * @param ttftP50Ms ttft_p50_ms
     * @param ttftP95Ms ttft_p95_ms
     * @param generationP50Ms generation_p50_ms
     * @param generationP95Ms generation_p95_ms
     * @param e2eP50Ms e2e_p50_ms
     * @param e2eP95Ms e2e_p95_ms
     * @param prefillP50 effective_prefill_tok_s_p50, tokens/s
     * @param prefillP95 effective_prefill_tok_s_p95, tokens/s
     * @param decodeP50 decode_tok_s_p50, tokens/s
     * @param decodeP95 decode_tok_s_p95, tokens/s
     * @param itlP50Ms mean_inter_token_latency_ms_p50
     * @param itlP95Ms mean_inter_token_latency_ms_p95
     * @param promptTokensP50 prompt_tokens_p50 (float)
     * @param promptTokensP95 prompt_tokens_p95 (float)
     * @param ttftSamples number of rows
     * @param promptTokens sum of row prompt_tokens, null when none
     * @param promptTokenSamples rows with prompt_tokens
     * @param outputTokens sum of out_toks when every source is usage (0 when no request succeeded)
     * @param contentChunks sum of content chunks
     * @param reasoningChunks sum of reasoning chunks
     * @param throughputTokS output_tokens / wall, tokens/s
     * @param contentChunksS content_chunks / wall, only when output_tokens is null
     * @param outputTokenSources successful requests per source (sorted)
     * @param prefixCacheHitAvg mean cached fraction, or null
     */
    public record Values(Double ttfoP50Ms, Double ttfoP95Ms, Double ttftP50Ms, Double ttftP95Ms,
                         Double generationP50Ms, Double generationP95Ms, Double e2eP50Ms, Double e2eP95Ms,
                         Double prefillP50, Double prefillP95, Double decodeP50, Double decodeP95,
                         Double itlP50Ms, Double itlP95Ms, Double promptTokensP50, Double promptTokensP95,
                         int ttftSamples, Long promptTokens, int promptTokenSamples, Long outputTokens,
                         long contentChunks, long reasoningChunks, Double throughputTokS, Double contentChunksS,
                         Map<String, Integer> outputTokenSources, Double prefixCacheHitAvg) {

        /** @return the typed Avro metrics */
        public Metrics toAvro() {
            return Metrics.newBuilder()
                    .setTimeToFirstOutputP50Ms(ttfoP50Ms).setTimeToFirstOutputP95Ms(ttfoP95Ms)
                    .setTtftP50Ms(ttftP50Ms).setTtftP95Ms(ttftP95Ms)
                    .setGenerationP50Ms(generationP50Ms).setGenerationP95Ms(generationP95Ms)
                    .setE2eP50Ms(e2eP50Ms).setE2eP95Ms(e2eP95Ms)
                    .setEffectivePrefillTokSP50(prefillP50).setEffectivePrefillTokSP95(prefillP95)
                    .setDecodeTokSP50(decodeP50).setDecodeTokSP95(decodeP95)
                    .setMeanInterTokenLatencyMsP50(itlP50Ms).setMeanInterTokenLatencyMsP95(itlP95Ms)
                    .setPromptTokensP50(promptTokensP50).setPromptTokensP95(promptTokensP95)
                    .setTtftSamples(ttftSamples).setPromptTokens(promptTokens)
                    .setPromptTokenSamples(promptTokenSamples).setOutputTokens(outputTokens)
                    .setContentChunks(contentChunks).setReasoningChunks(reasoningChunks)
                    .setThroughputTokS(throughputTokS).setContentChunksS(contentChunksS)
                    .setOutputTokenSources(new TreeMap<>(outputTokenSources))
                    .setPrefixCacheHitAvg(prefixCacheHitAvg)
                    .build();
        }

        /** @return the metrics object as the reference writes it (26 keys) */
        public ObjectNode toJson() {
            ObjectNode o = ArtifactJson.nodes().objectNode();
            o.put("time_to_first_output_p50_ms", ttfoP50Ms);
            o.put("time_to_first_output_p95_ms", ttfoP95Ms);
            o.put("ttft_p50_ms", ttftP50Ms);
            o.put("ttft_p95_ms", ttftP95Ms);
            o.put("generation_p50_ms", generationP50Ms);
            o.put("generation_p95_ms", generationP95Ms);
            o.put("e2e_p50_ms", e2eP50Ms);
            o.put("e2e_p95_ms", e2eP95Ms);
            o.put("effective_prefill_tok_s_p50", prefillP50);
            o.put("effective_prefill_tok_s_p95", prefillP95);
            o.put("decode_tok_s_p50", decodeP50);
            o.put("decode_tok_s_p95", decodeP95);
            o.put("mean_inter_token_latency_ms_p50", itlP50Ms);
            o.put("mean_inter_token_latency_ms_p95", itlP95Ms);
            o.put("prompt_tokens_p50", promptTokensP50);
            o.put("prompt_tokens_p95", promptTokensP95);
            o.put("ttft_samples", ttftSamples);
            o.put("prompt_tokens", promptTokens);
            o.put("prompt_token_samples", promptTokenSamples);
            o.put("output_tokens", outputTokens);
            o.put("content_chunks", contentChunks);
            o.put("reasoning_chunks", reasoningChunks);
            o.put("throughput_tok_s", throughputTokS);
            o.put("content_chunks_s", contentChunksS);
            ObjectNode sources = o.putObject("output_token_sources");
            outputTokenSources.forEach(sources::put);
            o.put("prefix_cache_hit_avg", prefixCacheHitAvg);
            return o;
        }
    }

    /**
     * Computes the metrics.
     *
     * @param rows valid rows (any order)
     * @param successes every successful request, sorted by request index
     * @param wallSeconds run wall clock in seconds, or null when unknown (throughput and
     *     content_chunks_s are then null)
     * @return the values
     */
    public static Values compute(List<Row> rows, List<RequestCompleted> successes, Double wallSeconds) {
        long outputSum = 0;
        boolean allUsage = true;
        long contentChunks = 0;
        long reasoningChunks = 0;
        Map<String, Integer> sources = new TreeMap<>();
        double fractionSum = 0;
        int fractions = 0;
        for (RequestCompleted c : successes) {
            String source = RowCalculator.effectiveSource(c);
            sources.merge(source, 1, Integer::sum);
            if (RowCalculator.SOURCE_USAGE.equals(source)) {
                outputSum += c.getCompletionTokens();
            } else {
                allUsage = false;
            }
            contentChunks += c.getContentChunks();
            reasoningChunks += c.getReasoningChunks();
            Double f = cachedFraction(c);
            if (f != null) {
                fractionSum += f;
                fractions++;
            }
        }
        Long outputTokens = allUsage ? outputSum : null;
        boolean wallUsable = wallSeconds != null && wallSeconds != 0.0;
        Double throughput = outputTokens != null && wallUsable ? outputTokens / wallSeconds : null;
        Double chunksPerS = outputTokens == null && wallUsable ? contentChunks / wallSeconds : null;

        long promptSum = 0;
        int promptSamples = 0;
        List<Double> promptValues = new ArrayList<>();
        for (Row r : rows) {
            if (r.promptTokens() != null) {
                promptSum += r.promptTokens();
                promptSamples++;
                promptValues.add(r.promptTokens().doubleValue());
            }
        }
        return new Values(
                p(rows, Row::timeToFirstOutputMs, 50), p(rows, Row::timeToFirstOutputMs, 95),
                p(rows, Row::ttftMs, 50), p(rows, Row::ttftMs, 95),
                p(rows, Row::generationMs, 50), p(rows, Row::generationMs, 95),
                p(rows, Row::e2eMs, 50), p(rows, Row::e2eMs, 95),
                p(rows, Row::effectivePrefillTokS, 50), p(rows, Row::effectivePrefillTokS, 95),
                p(rows, Row::decodeTokS, 50), p(rows, Row::decodeTokS, 95),
                p(rows, Row::meanInterTokenLatencyMs, 50), p(rows, Row::meanInterTokenLatencyMs, 95),
                NearestRank.percentile(promptValues, 50), NearestRank.percentile(promptValues, 95),
                rows.size(), promptSamples == 0 ? null : promptSum, promptSamples, outputTokens,
                contentChunks, reasoningChunks, throughput, chunksPerS, sources,
                fractions == 0 ? null : fractionSum / fractions);
    }

    /**
     * Per-request cached fraction (spec §4.3): the import override when present, else
     * {@code cached_tokens / prompt_tokens} when cached is not null and prompt is non-zero.
     *
     * @param c the request
     * @return the fraction or null
     */
    public static Double cachedFraction(RequestCompleted c) {
        if (c.getExactCachedFraction() != null) {
            return c.getExactCachedFraction();
        }
        Long cached = c.getCachedTokens();
        Long prompt = c.getPromptTokens();
        if (cached != null && prompt != null && prompt != 0) {
            return cached.doubleValue() / prompt.doubleValue();
        }
        return null;
    }

    private static Double p(List<Row> rows, Function<Row, ? extends Number> column, int q) {
        List<Number> values = new ArrayList<>(rows.size());
        for (Row r : rows) {
            values.add(column.apply(r));
        }
        return NearestRank.percentile(values, q);
    }
}

package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.stats.NearestRank;
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
     * Computes the metrics.
     *
     * @param rows valid rows (any order)
     * @param successes every successful request, sorted by request index
     * @param wallSeconds run wall clock in seconds, or null when unknown (throughput and
     *     content_chunks_s are then null)
     * @return the typed metrics (the artifact's {@code metrics} object is mapped from it by the
     *     schema); boxed fields are null exactly when spec §8.2 says so
     */
    public static Metrics compute(List<RequestTiming> rows, List<RequestCompleted> successes, Double wallSeconds) {
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
        for (RequestTiming r : rows) {
            if (r.getPromptTokens() != null) {
                promptSum += r.getPromptTokens();
                promptSamples++;
                promptValues.add(r.getPromptTokens().doubleValue());
            }
        }
        return Metrics.newBuilder()
                .setTimeToFirstOutputP50Ms(p(rows, RequestTiming::getTimeToFirstOutputMs, 50))
                .setTimeToFirstOutputP95Ms(p(rows, RequestTiming::getTimeToFirstOutputMs, 95))
                .setTtftP50Ms(p(rows, RequestTiming::getTtftMs, 50))
                .setTtftP95Ms(p(rows, RequestTiming::getTtftMs, 95))
                .setGenerationP50Ms(p(rows, RequestTiming::getGenerationMs, 50))
                .setGenerationP95Ms(p(rows, RequestTiming::getGenerationMs, 95))
                .setE2eP50Ms(p(rows, RequestTiming::getE2eMs, 50))
                .setE2eP95Ms(p(rows, RequestTiming::getE2eMs, 95))
                .setEffectivePrefillTokSP50(p(rows, RequestTiming::getEffectivePrefillTokS, 50))
                .setEffectivePrefillTokSP95(p(rows, RequestTiming::getEffectivePrefillTokS, 95))
                .setDecodeTokSP50(p(rows, RequestTiming::getDecodeTokS, 50))
                .setDecodeTokSP95(p(rows, RequestTiming::getDecodeTokS, 95))
                .setMeanInterTokenLatencyMsP50(p(rows, RequestTiming::getMeanInterTokenLatencyMs, 50))
                .setMeanInterTokenLatencyMsP95(p(rows, RequestTiming::getMeanInterTokenLatencyMs, 95))
                .setPromptTokensP50(NearestRank.percentile(promptValues, 50))
                .setPromptTokensP95(NearestRank.percentile(promptValues, 95))
                .setTtftSamples(rows.size())
                .setPromptTokens(promptSamples == 0 ? null : promptSum)
                .setPromptTokenSamples(promptSamples)
                .setOutputTokens(outputTokens)
                .setContentChunks(contentChunks)
                .setReasoningChunks(reasoningChunks)
                .setThroughputTokS(throughput)
                .setContentChunksS(chunksPerS)
                .setOutputTokenSources(sources)
                .setPrefixCacheHitAvg(fractions == 0 ? null : fractionSum / fractions)
                .build();
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

    private static Double p(List<RequestTiming> rows, Function<RequestTiming, ? extends Number> column, int q) {
        List<Number> values = new ArrayList<>(rows.size());
        for (RequestTiming r : rows) {
            values.add(column.apply(r));
        }
        return NearestRank.percentile(values, q);
    }
}

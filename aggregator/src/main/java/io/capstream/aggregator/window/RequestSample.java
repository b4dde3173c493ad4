package io.capstream.aggregator.window;

/**
 * The per-request values a window aggregates, taken from the request's spec §7 row (computed by
 * the report's row code, never recomputed here).
 *
 * @param ttftMs       TTFT, ms; NaN when there is none (embeddings, rerank)
 * @param ttfoMs       time to first output, ms; NaN when there is none
 * @param e2eMs        end to end, ms
 * @param itlMs        mean inter-token latency, ms; null when the row has none (§7)
 * @param decodeTokS   decode rate, tokens/s; null when the row has none
 * @param prefillTokS  effective prefill rate, tokens/s; null when the row has none
 * @param promptTokens usage prompt tokens; null when not reported
 * @param outputTokens output tokens: usage completion tokens, else content chunks (spec §4.3 out_toks)
 * @param streamed     true for a streamed request (its E2E is a {@link LatencyMeasure#E2E}), false for embeddings
 *                     and rerank (a {@link LatencyMeasure#REQUEST_LATENCY})
 * @param chunkGapsUs  gaps between consecutive output chunks, microseconds (the event's
 *                     {@code output_chunk_gaps_us}); null when the event has none
 */
public record RequestSample(double ttftMs, double ttfoMs, double e2eMs, Double itlMs, Double decodeTokS,
                            Double prefillTokS, Long promptTokens, long outputTokens, boolean streamed,
                            java.util.List<Integer> chunkGapsUs) {

    /**
     * A streamed request's values without chunk gaps.
     *
     * @param ttftMs       TTFT, ms
     * @param ttfoMs       time to first output, ms
     * @param e2eMs        end to end, ms
     * @param itlMs        mean inter-token latency, ms; nullable
     * @param decodeTokS   decode rate, tokens/s; nullable
     * @param prefillTokS  effective prefill rate, tokens/s; nullable
     * @param promptTokens usage prompt tokens; nullable
     * @param outputTokens output tokens
     */
    public RequestSample(double ttftMs, double ttfoMs, double e2eMs, Double itlMs, Double decodeTokS,
                         Double prefillTokS, Long promptTokens, long outputTokens) {
        this(ttftMs, ttfoMs, e2eMs, itlMs, decodeTokS, prefillTokS, promptTokens, outputTokens, true, null);
    }

    /**
     * @param quantity which quantity
     * @return its value for this request, or null when the row has none
     */
    public Double value(Quantity quantity) {
        return switch (quantity) {
            case TTFT -> ttftMs;
            case TTFO -> ttfoMs;
            case E2E -> e2eMs;
            case ITL -> itlMs;
            case DECODE -> decodeTokS;
            case PREFILL -> prefillTokS;
        };
    }
}

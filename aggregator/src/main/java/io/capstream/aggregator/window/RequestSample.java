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
 */
public record RequestSample(double ttftMs, double ttfoMs, double e2eMs, Double itlMs, Double decodeTokS,
                            Double prefillTokS, Long promptTokens, long outputTokens) {

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

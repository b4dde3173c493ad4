package io.capstream.aggregator.report.calc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.RequestTiming;

/**
 * One {@code request_timings[]} row (spec §7), in the reference's units: times in ms, rates in
 * tokens/s. Nullable fields are boxed and null exactly when the spec says so.
 *
 * @param requestIndex 0-based request index
 * @param plannedContextTokens clamped planned context, tokens
 * @param promptTokens usage.prompt_tokens, or null
 * @param outputTokens output tokens when the source is {@code usage}, else null
 * @param outputTokenSource usage, content_chunks or unknown
 * @param timeToFirstOutputMs ttfo x 1000, ms
 * @param ttftMs ttft x 1000, ms
 * @param generationMs (e2e - ttfo) x 1000, ms
 * @param visibleGenerationMs (e2e - ttft) x 1000, ms
 * @param e2eMs e2e x 1000, ms
 * @param effectivePrefillTokS prompt_tokens / ttfo, tokens/s; null when prompt_tokens is null or ttfo = 0
 * @param decodeTokS (output_tokens - 1) / (e2e - ttfo), tokens/s, or null
 * @param meanInterTokenLatencyMs (e2e - ttfo) x 1000 / (output_tokens - 1), ms, or null
 * @param reasoningChunks reasoning deltas
 * @param contentChunks content deltas
 */
public record Row(int requestIndex, int plannedContextTokens, Long promptTokens, Long outputTokens,
                  String outputTokenSource, double timeToFirstOutputMs, double ttftMs, double generationMs,
                  double visibleGenerationMs, double e2eMs, Double effectivePrefillTokS, Double decodeTokS,
                  Double meanInterTokenLatencyMs, int reasoningChunks, int contentChunks) {

    /** @return the typed Avro row */
    public RequestTiming toAvro() {
        return RequestTiming.newBuilder()
                .setRequestIndex(requestIndex)
                .setPlannedContextTokens(plannedContextTokens)
                .setPromptTokens(promptTokens)
                .setOutputTokens(outputTokens)
                .setOutputTokenSource(outputTokenSource)
                .setTimeToFirstOutputMs(timeToFirstOutputMs)
                .setTtftMs(ttftMs)
                .setGenerationMs(generationMs)
                .setVisibleGenerationMs(visibleGenerationMs)
                .setE2eMs(e2eMs)
                .setEffectivePrefillTokS(effectivePrefillTokS)
                .setDecodeTokS(decodeTokS)
                .setMeanInterTokenLatencyMs(meanInterTokenLatencyMs)
                .setReasoningChunks(reasoningChunks)
                .setContentChunks(contentChunks)
                .build();
    }

    /** @return the row as the reference writes it (15 keys, ints as ints, floats as floats) */
    public ObjectNode toJson() {
        ObjectNode o = ArtifactJson.nodes().objectNode();
        o.put("request_index", requestIndex);
        o.put("planned_context_tokens", plannedContextTokens);
        o.put("prompt_tokens", promptTokens);
        o.put("output_tokens", outputTokens);
        o.put("output_token_source", outputTokenSource);
        o.put("time_to_first_output_ms", timeToFirstOutputMs);
        o.put("ttft_ms", ttftMs);
        o.put("generation_ms", generationMs);
        o.put("visible_generation_ms", visibleGenerationMs);
        o.put("e2e_ms", e2eMs);
        o.put("effective_prefill_tok_s", effectivePrefillTokS);
        o.put("decode_tok_s", decodeTokS);
        o.put("mean_inter_token_latency_ms", meanInterTokenLatencyMs);
        o.put("reasoning_chunks", reasoningChunks);
        o.put("content_chunks", contentChunks);
        return o;
    }
}

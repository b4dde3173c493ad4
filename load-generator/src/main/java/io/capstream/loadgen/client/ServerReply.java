package io.capstream.loadgen.client;

import java.util.Map;

/**
 * What a response said about the server's own view of the request (issue 33): its id, the request id header it
 * answered with, llama.cpp's per-request {@code timings} and the {@code Server-Timing} header. Every field is null
 * when the response did not carry it.
 *
 * @param responseId        the response's {@code id} (first chunk that has one), or null
 * @param responseRequestId the {@code X-Request-Id} response header, or null
 * @param promptN           llama.cpp {@code timings.prompt_n}, or null
 * @param promptMs          llama.cpp {@code timings.prompt_ms}, ms, or null
 * @param predictedN        llama.cpp {@code timings.predicted_n}, or null
 * @param predictedMs       llama.cpp {@code timings.predicted_ms}, ms, or null
 * @param cacheN            llama.cpp {@code timings.cache_n}, or null
 * @param serverTiming      {@code Server-Timing} entries, name to dur in ms ({@link ServerTimingHeader}), or null
 */
public record ServerReply(String responseId, String responseRequestId, Integer promptN, Double promptMs,
                          Integer predictedN, Double predictedMs, Integer cacheN, Map<String, Double> serverTiming) {
    /** A response that said nothing of the server's view. */
    public static final ServerReply NONE = new ServerReply(null, null, null, null, null, null, null, null);
}

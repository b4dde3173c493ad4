package io.capstream.loadgen.client;

/**
 * The raw measurements of one request (spec §4.3, §12.2). Times are ns after the request's t0
 * ({@code System.nanoTime()} read just before connecting); -1 means "not reached".
 *
 * @param t0Ns             the request's t0, absolute {@code System.nanoTime()}
 * @param ttfoNs           first non-empty reasoning or content delta, ns after t0, or -1
 * @param ttftNs           first non-empty content delta, ns after t0, or -1
 * @param e2eNs            stream consumed (end, {@code [DONE]}) or failure, ns after t0
 * @param httpStatus       HTTP status, or -1 when no response head arrived
 * @param promptTokens     usage.prompt_tokens when an integer ≥ 0, else -1
 * @param completionTokens usage.completion_tokens when an integer ≥ 0, else -1
 * @param cachedTokens     usage.prompt_tokens_details.cached_tokens when an integer ≥ 0, else -1
 * @param contentChunks    non-empty content deltas
 * @param reasoningChunks  non-empty reasoning deltas
 * @param maxChunkGapNs    largest gap between consecutive {@code data:} lines, ns, or -1
 * @param finishReason     last finish_reason, or null
 * @param bodyBytes        response body bytes read
 * @param outputGaps       gaps between consecutive output chunks, µs ({@link OutputChunkGaps#NONE} when none);
 *                         null is taken as none
 * @param error            the failure, or null for a completed request
 * @param toolCallChunks   non-empty tool-call deltas (issue 29; output only when the run sends tools)
 * @param reply            what the answer said, kept for a conversation's next turn ({@link Reply#NONE} when not
 *                         kept); null is taken as none
 * @param phases           where the time went before the first content (DNS, connect, TLS, sent, head, first
 *                         chunk; issue 30), or null when not measured
 * @param server           what the response said of the server's own view (issue 33: response id, llama.cpp
 *                         timings, {@code Server-Timing}); null is taken as {@link ServerReply#NONE}
 */
public record RequestResult(long t0Ns, long ttfoNs, long ttftNs, long e2eNs, int httpStatus, long promptTokens,
                            long completionTokens, long cachedTokens, int contentChunks, int reasoningChunks,
                            long maxChunkGapNs, String finishReason, long bodyBytes, OutputChunkGaps outputGaps,
                            RequestError error, int toolCallChunks, Reply reply, HttpTimings phases,
                            ServerReply server) {

    /** Takes a null {@code outputGaps}, {@code reply} and {@code server} as none. */
    public RequestResult {
        outputGaps = outputGaps == null ? OutputChunkGaps.NONE : outputGaps;
        reply = reply == null ? Reply.NONE : reply;
        server = server == null ? ServerReply.NONE : server;
    }

    /**
     * A result without the server's view.
     *
     * @see #RequestResult(long, long, long, long, int, long, long, long, int, int, long, String, long, OutputChunkGaps,
     *      RequestError, int, Reply, HttpTimings, ServerReply)
     */
    public RequestResult(long t0Ns, long ttfoNs, long ttftNs, long e2eNs, int httpStatus, long promptTokens,
                         long completionTokens, long cachedTokens, int contentChunks, int reasoningChunks,
                         long maxChunkGapNs, String finishReason, long bodyBytes, OutputChunkGaps outputGaps,
                         RequestError error, int toolCallChunks, Reply reply, HttpTimings phases) {
        this(t0Ns, ttfoNs, ttftNs, e2eNs, httpStatus, promptTokens, completionTokens, cachedTokens, contentChunks,
                reasoningChunks, maxChunkGapNs, finishReason, bodyBytes, outputGaps, error, toolCallChunks, reply,
                phases, null);
    }

    /**
     * A result without measured HTTP phases.
     *
     * @see #RequestResult(long, long, long, long, int, long, long, long, int, int, long, String, long, OutputChunkGaps,
     *      RequestError, int, Reply, HttpTimings, ServerReply)
     */
    public RequestResult(long t0Ns, long ttfoNs, long ttftNs, long e2eNs, int httpStatus, long promptTokens,
                         long completionTokens, long cachedTokens, int contentChunks, int reasoningChunks,
                         long maxChunkGapNs, String finishReason, long bodyBytes, OutputChunkGaps outputGaps,
                         RequestError error, int toolCallChunks, Reply reply) {
        this(t0Ns, ttfoNs, ttftNs, e2eNs, httpStatus, promptTokens, completionTokens, cachedTokens, contentChunks,
                reasoningChunks, maxChunkGapNs, finishReason, bodyBytes, outputGaps, error, toolCallChunks, reply, null);
    }

    /** @return whether the client cancelled the request on purpose (an error of type {@link ErrorTypes#CANCELLED}) */
    public boolean cancelled() {
        return error != null && ErrorTypes.CANCELLED.equals(error.type());
    }

    /**
     * A result without tool calls and without a kept reply (the single-turn text runs).
     *
     * @see #RequestResult(long, long, long, long, int, long, long, long, int, int, long, String, long, OutputChunkGaps,
     *      RequestError, int, Reply, HttpTimings)
     */
    public RequestResult(long t0Ns, long ttfoNs, long ttftNs, long e2eNs, int httpStatus, long promptTokens,
                         long completionTokens, long cachedTokens, int contentChunks, int reasoningChunks,
                         long maxChunkGapNs, String finishReason, long bodyBytes, OutputChunkGaps outputGaps,
                         RequestError error) {
        this(t0Ns, ttfoNs, ttftNs, e2eNs, httpStatus, promptTokens, completionTokens, cachedTokens, contentChunks,
                reasoningChunks, maxChunkGapNs, finishReason, bodyBytes, outputGaps, error, 0, Reply.NONE);
    }

    /** @return whether the request completed (no error) */
    public boolean ok() {
        return error == null;
    }

    /** @return {@code usage} when completion_tokens is known, else {@code content_chunks} (spec §4.3) */
    public String outputTokenSource() {
        return completionTokens >= 0 ? "usage" : "content_chunks";
    }

    /**
     * A failure before any response data.
     *
     * @param t0Ns  t0
     * @param e2eNs elapsed ns
     * @param error the failure
     * @return the result
     */
    public static RequestResult failed(long t0Ns, long e2eNs, RequestError error) {
        return new RequestResult(t0Ns, -1, -1, e2eNs, -1, -1, -1, -1, 0, 0, -1, null, 0, OutputChunkGaps.NONE, error);
    }
}

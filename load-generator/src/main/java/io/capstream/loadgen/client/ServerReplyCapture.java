package io.capstream.loadgen.client;

import io.vertx.core.http.HttpClientResponse;

/**
 * Collects a {@link ServerReply} while a response arrives: the headers when the head arrives ({@link #head}), the
 * first response id and the last {@code timings} object from the decoded chunks ({@link #take}). One per request,
 * used on its event loop; allocates only the id string (once) and the result.
 */
final class ServerReplyCapture {
    private String responseId;
    private String responseRequestId;
    private java.util.Map<String, Double> serverTiming;
    private long promptN = -1;
    private double promptMs = -1;
    private long predictedN = -1;
    private double predictedMs = -1;
    private long cacheN = -1;

    /**
     * Reads the response head's {@code X-Request-Id} and {@code Server-Timing} headers.
     *
     * @param resp the response; not null
     */
    void head(HttpClientResponse resp) {
        head(resp.getHeader(TraceHeaders.REQUEST_ID), resp.headers().getAll("Server-Timing"));
    }

    /**
     * Takes the response head's {@code X-Request-Id} and {@code Server-Timing} header values.
     *
     * @param requestId the {@code X-Request-Id}, or null
     * @param timings   the {@code Server-Timing} values; not null
     */
    void head(String requestId, java.util.List<String> timings) {
        responseRequestId = requestId;
        serverTiming = ServerTimingHeader.parse(timings);
    }

    /**
     * Takes a decoded chunk's response id (the first one wins; the chunk then stops reading ids) and timings (the
     * last ones win).
     *
     * @param chunk the chunk just decoded; not null
     */
    void take(DecodedChunk chunk) {
        if (responseId == null && chunk.serverId() != null) {
            responseId = chunk.serverId();
            chunk.wantServerId(false);
        }
        if (chunk.timings().promptMs() >= 0 || chunk.timings().predictedMs() >= 0) {
            promptN = chunk.timings().promptN();
            promptMs = chunk.timings().promptMs();
            predictedN = chunk.timings().predictedN();
            predictedMs = chunk.timings().predictedMs();
            cacheN = chunk.timings().cacheN();
        }
    }

    /** @return what was captured; {@link ServerReply#NONE} when nothing */
    ServerReply reply() {
        if (responseId == null && responseRequestId == null && serverTiming == null && promptMs < 0
                && predictedMs < 0) {
            return ServerReply.NONE;
        }
        return new ServerReply(responseId, responseRequestId, count(promptN), promptMs < 0 ? null : promptMs,
                count(predictedN), predictedMs < 0 ? null : predictedMs, count(cacheN), serverTiming);
    }

    private static Integer count(long n) {
        return n < 0 || n > Integer.MAX_VALUE ? null : (int) n;
    }
}

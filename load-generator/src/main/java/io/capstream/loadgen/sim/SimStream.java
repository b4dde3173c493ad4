package io.capstream.loadgen.sim;

import io.vertx.core.http.HttpServerResponse;

/**
 * State of one request inside the simulated engine. Mutated only on the engine's event loop.
 */
final class SimStream {
    /** Lifecycle of a request in the engine. */
    enum State { QUEUED, PREFILL, DECODING, DONE }

    final HttpServerResponse response;
    final ChatRequest request;
    final SseChunks chunks;
    final String id;
    final int promptTokens;
    final int cachedTokens;
    final int outputTokens;
    final int reasoningTokens;
    final boolean finishedByLength;
    final FaultPlan fault;
    final long arrivedNs;
    /** This stream's decode cap, tokens/s ({@link SimConfig#streamDecodeTokPerS(double)}). */
    final double streamTokPerS;

    State state = State.QUEUED;
    boolean closed;
    boolean holdsSlot;
    boolean headersSent;
    boolean faultDone;
    int written;
    double credit;
    long admittedNs;
    long firstTokenNs;
    long stalledUntilNs;
    final StringBuilder content;
    final StringBuilder reasoning;

    SimStream(HttpServerResponse response, ChatRequest request, SseChunks chunks, String id, int promptTokens,
              int cachedTokens, int outputTokens, int reasoningTokens, boolean finishedByLength, FaultPlan fault,
              long arrivedNs, double streamTokPerS) {
        this.response = response;
        this.request = request;
        this.chunks = chunks;
        this.id = id;
        this.promptTokens = promptTokens;
        this.cachedTokens = cachedTokens;
        this.outputTokens = outputTokens;
        this.reasoningTokens = reasoningTokens;
        this.finishedByLength = finishedByLength;
        this.fault = fault;
        this.arrivedNs = arrivedNs;
        this.streamTokPerS = streamTokPerS;
        this.content = request.stream() ? null : new StringBuilder();
        this.reasoning = request.stream() ? null : new StringBuilder();
    }

    /** @return tokens still to produce */
    int remaining() {
        return outputTokens - written;
    }

    /** @return the finish_reason: length when max_tokens ended the output, else stop */
    String finishReason() {
        return finishedByLength ? "length" : "stop";
    }
}

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
    final SimWire wire;
    final String id;
    /** The tool call this answer is, or null for a text answer. */
    final ToolAnswer tool;
    final int promptTokens;
    final int cachedTokens;
    final int outputTokens;
    final int reasoningTokens;
    final boolean finishedByLength;
    final FaultPlan fault;
    final long arrivedNs;
    /** This stream's decode cap, tokens/s ({@link SimConfig#streamDecodeTokPerS(double)}). */
    final double streamTokPerS;

    /** Where the prompt ended in the prefix cache (to record the answer after it), or null without the cache. */
    PrefixCache.Lookup cacheAt;
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

    SimStream(HttpServerResponse response, ChatRequest request, SimWire wire, String id, ToolAnswer tool,
              int promptTokens, int cachedTokens, int outputTokens, int reasoningTokens, boolean finishedByLength,
              FaultPlan fault, long arrivedNs, double streamTokPerS) {
        this.response = response;
        this.request = request;
        this.wire = wire;
        this.id = id;
        this.tool = tool;
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

    /** @return the finish_reason: tool_calls for a tool call, length when max_tokens ended the output, else stop */
    String finishReason() {
        return tool != null ? "tool_calls" : finishedByLength ? "length" : "stop";
    }

    /**
     * @return the answer as prompt text, as a client sends it back in the next turn ({@link PromptText}): the content
     *         text, or the tool call; reasoning is not part of it
     */
    String answerText() {
        if (tool != null) {
            return tool.promptText();
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < outputTokens - reasoningTokens; i++) {
            b.append(SseChunks.contentToken(i));
        }
        return b.toString();
    }
}

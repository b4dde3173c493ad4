package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonToken;

/**
 * What one stream chunk says (spec §4.2), as filled in by {@link ChunkDecoder} (and the other APIs'
 * decoders): the number of non-empty content, reasoning and tool-call deltas, when the run keeps the
 * reply the chunk's content text, tool-call deltas and response id, the truthy usage, the {@code finish_reason}, a malformed
 * structure the reference would fail on with a {@code TypeError}, and an {@code error} member.
 * Failures are kept as facts (what was malformed, which JSON token), not as text: their wording is
 * {@link ChunkErrors}' job and happens only when a chunk fails.
 *
 * <p>One instance is reused for every payload of a request (no allocation per chunk unless it keeps
 * the reply); its values
 * are those of the last payload decoded and are meaningful only when that payload parsed
 * ({@link SseEventAssembler.Parse#PARSED}). Not thread-safe.
 */
final class DecodedChunk {
    /** A chunk structure the reference's {@code .get} / iteration would raise a {@code TypeError} on. */
    enum Malformed {
        /** The chunk is a JSON value other than an object. */
        CHUNK_NOT_OBJECT,
        /** {@code choices} is a non-empty string. */
        CHOICES_STRING,
        /** {@code choices} is a non-empty object. */
        CHOICES_OBJECT,
        /** {@code choices} is null, a number or a boolean. */
        CHOICES_NOT_ITERABLE,
        /** An element of {@code choices} is not an object. */
        CHOICE_NOT_OBJECT
    }

    private boolean usage;
    private long promptTokens;
    private long completionTokens;
    private long cachedTokens;
    private int contentDeltas;
    private int reasoningDeltas;
    private String finishReason;
    private Malformed malformed;
    private JsonToken malformedToken;
    private JsonToken errorToken;
    private String errorMessage;
    private String errorType;
    private String errorCode;
    private int toolCallDeltas;
    private final boolean keepReply;
    private final StringBuilder text;
    private int pendingCalls;
    private int[] callIndex;
    private String[] callId;
    private String[] callName;
    private String[] callArguments;
    private String responseId;
    private final LlamaTimings timings = new LlamaTimings();
    private boolean wantServerId = true;
    private String serverId;

    /** Creates a chunk with nothing recorded that keeps no reply text (the benchmark path: no allocation). */
    DecodedChunk() {
        this(false);
    }

    /**
     * Creates a chunk with nothing recorded.
     *
     * @param keepReply keep the chunk's content text and response id for the reply ({@link #contentText},
     *                  {@link #responseId(String)}); when false they are ignored and nothing is allocated
     *                  (tool-call deltas are kept either way, see {@link #toolCallDelta})
     */
    DecodedChunk(boolean keepReply) {
        this.keepReply = keepReply;
        this.text = keepReply ? new StringBuilder() : null;
        reset();
    }

    /** Clears the values of the previous payload; called by {@link ChunkDecoder} before each one. */
    void reset() {
        usage = false;
        promptTokens = -1;
        completionTokens = -1;
        cachedTokens = -1;
        contentDeltas = 0;
        reasoningDeltas = 0;
        finishReason = null;
        malformed = null;
        malformedToken = null;
        errorToken = null;
        errorMessage = null;
        errorType = null;
        errorCode = null;
        toolCallDeltas = 0;
        timings.reset();
        serverId = null;
        if (keepReply) {
            text.setLength(0);
            responseId = null;
        }
        for (int i = 0; i < pendingCalls; i++) {
            callId[i] = null;
            callName[i] = null;
            callArguments[i] = null;
        }
        pendingCalls = 0;
    }

    /**
     * Records a truthy usage object; a later one in the same chunk replaces it.
     *
     * @param prompt     prompt_tokens when an integer ≥ 0, else -1
     * @param completion completion_tokens when an integer ≥ 0, else -1
     * @param cached     prompt_tokens_details.cached_tokens when an integer ≥ 0, else -1
     */
    void usage(long prompt, long completion, long cached) {
        usage = true;
        promptTokens = prompt;
        completionTokens = completion;
        cachedTokens = cached;
    }

    /** Counts one choice delta with a non-empty string content. */
    void contentDelta() {
        contentDeltas++;
    }

    /**
     * Records one tool-call delta (chat's {@code delta.tool_calls[]} element, a Responses function-call argument
     * delta, a Messages {@code tool_use} start or {@code input_json_delta}). It is counted in
     * {@link #toolCallDeltas()} when non-empty: its id, name or arguments fragment is a non-empty string. Every
     * delta is kept for the {@link ToolCallAssembler} (so that a failure can say how many tool calls the answer
     * had, and the reply can list them): this allocates only for answers that have tool calls.
     *
     * @param index             the call's position ({@code tool_calls[].index}), or -1 when the delta has none (then
     *                          it belongs to the call with the same id, or, without an id, to the last one started)
     * @param id                the call's id, or null when absent (servers often send it on the first delta only)
     * @param name              the function's name (or a fragment of it), or null when absent
     * @param argumentsFragment the next fragment of the arguments' JSON text, or null when absent
     */
    void toolCallDelta(int index, String id, String name, String argumentsFragment) {
        boolean nonEmpty = id != null && !id.isEmpty() || name != null && !name.isEmpty()
                || argumentsFragment != null && !argumentsFragment.isEmpty();
        if (nonEmpty) {
            toolCallDeltas++;
        }
        if (callIndex == null) {
            callIndex = new int[2];
            callId = new String[2];
            callName = new String[2];
            callArguments = new String[2];
        } else if (pendingCalls == callIndex.length) {
            int n = pendingCalls * 2;
            callIndex = java.util.Arrays.copyOf(callIndex, n);
            callId = java.util.Arrays.copyOf(callId, n);
            callName = java.util.Arrays.copyOf(callName, n);
            callArguments = java.util.Arrays.copyOf(callArguments, n);
        }
        callIndex[pendingCalls] = index;
        callId[pendingCalls] = id;
        callName[pendingCalls] = name;
        callArguments[pendingCalls] = argumentsFragment;
        pendingCalls++;
    }

    /**
     * Hands content text to the reply (call it for each content delta, next to {@link #contentDelta()}); does
     * nothing (and allocates nothing) unless the chunk keeps the reply.
     *
     * @param chars  the text's characters (only read during the call; e.g. Jackson's {@code getTextCharacters()})
     * @param offset offset of the text in {@code chars}
     * @param length length of the text, chars
     */
    void contentText(char[] chars, int offset, int length) {
        if (keepReply) {
            text.append(chars, offset, length);
        }
    }

    /**
     * As {@link #contentText(char[], int, int)} for a string.
     *
     * @param content the content text; null is ignored
     */
    void contentText(String content) {
        if (keepReply && content != null) {
            text.append(content);
        }
    }

    /**
     * Records the Responses API's {@code response.id} for the reply (kept only when the chunk keeps the reply).
     *
     * @param id the response id; null is ignored
     */
    void responseId(String id) {
        if (keepReply && id != null) {
            responseId = id;
        }
        serverId(id);
    }

    /**
     * Records the chunk's response {@code id} for the server's view (issue 33) while {@link #wantsServerId()}.
     *
     * @param id the id; null is ignored
     */
    void serverId(String id) {
        if (wantServerId && id != null) {
            serverId = id;
        }
    }

    /** @return whether the decoder should read the chunk's {@code id} (until the request has one: one string) */
    boolean wantsServerId() {
        return wantServerId;
    }

    /** @param want whether later chunks' ids are read ({@link ServerReplyCapture} stops it once it has one) */
    void wantServerId(boolean want) {
        wantServerId = want;
    }

    /** @return the chunk's response id when read ({@link #serverId(String)}), or null */
    String serverId() {
        return serverId;
    }

    /** @return whether this chunk keeps content text, tool-call deltas and the response id for the reply */
    boolean keepsReply() {
        return keepReply;
    }

    /** @return non-empty tool-call deltas of the chunk (see {@link #toolCallDelta}) */
    int toolCallDeltas() {
        return toolCallDeltas;
    }

    /** @return the chunk's content text kept for the reply (empty when none or not kept); valid until {@link #reset()} */
    CharSequence contentText() {
        return keepReply ? text : "";
    }

    /** @return tool-call deltas of the chunk, in order, empty ones included */
    int keptToolCallDeltas() {
        return pendingCalls;
    }

    /** @param i 0 ≤ i &lt; {@link #keptToolCallDeltas()} @return that delta's index, or -1 when absent */
    int keptToolCallIndex(int i) {
        return callIndex[i];
    }

    /** @param i 0 ≤ i &lt; {@link #keptToolCallDeltas()} @return that delta's id, or null */
    String keptToolCallId(int i) {
        return callId[i];
    }

    /** @param i 0 ≤ i &lt; {@link #keptToolCallDeltas()} @return that delta's name, or null */
    String keptToolCallName(int i) {
        return callName[i];
    }

    /** @param i 0 ≤ i &lt; {@link #keptToolCallDeltas()} @return that delta's arguments fragment, or null */
    String keptToolCallArguments(int i) {
        return callArguments[i];
    }

    /** @return the response id kept for the reply, or null */
    String keptResponseId() {
        return responseId;
    }

    /** @return llama.cpp's {@code timings} of the chunk (each value -1 when absent); the chunk's own, reused */
    LlamaTimings timings() {
        return timings;
    }

    /** Counts one choice delta with a non-empty reasoning string. */
    void reasoningDelta() {
        reasoningDeltas++;
    }

    /** @param reason a choice's string finish_reason (not null); the last one wins */
    void finishReason(String reason) {
        finishReason = reason;
    }

    /**
     * Records a malformed structure; only the first one of the chunk is kept.
     *
     * @param what  what is malformed
     * @param token the JSON token of the offending value
     */
    void malformed(Malformed what, JsonToken token) {
        if (malformed == null) {
            malformed = what;
            malformedToken = token;
        }
    }

    /**
     * Records a truthy {@code error} member; a later one in the same chunk replaces it (a falsy one does not).
     *
     * @param token   the token that starts the value (see {@link #errorToken()})
     * @param message {@code error.message} or the error string, or null
     * @param type    {@code error.type}, or null
     * @param code    {@code error.code}, or null
     */
    void error(JsonToken token, String message, String type, String code) {
        errorToken = token;
        errorMessage = message;
        errorType = type;
        errorCode = code;
    }

    /** @return whether the chunk has a truthy {@code usage} object (the last one in the chunk wins) */
    boolean usage() {
        return usage;
    }

    /** @return usage.prompt_tokens when an integer ≥ 0, else -1 */
    long promptTokens() {
        return promptTokens;
    }

    /** @return usage.completion_tokens when an integer ≥ 0, else -1 */
    long completionTokens() {
        return completionTokens;
    }

    /** @return usage.prompt_tokens_details.cached_tokens when an integer ≥ 0, else -1 */
    long cachedTokens() {
        return cachedTokens;
    }

    /** @return choice deltas with a non-empty string {@code content} */
    int contentDeltas() {
        return contentDeltas;
    }

    /** @return choice deltas with a non-empty reasoning string (spec §4.2: reasoning_content, else reasoning) */
    int reasoningDeltas() {
        return reasoningDeltas;
    }

    /** @return the last string {@code finish_reason} of the chunk's choices, or null */
    String finishReason() {
        return finishReason;
    }

    /** @return the first malformed structure found, or null when the chunk is well formed */
    Malformed malformed() {
        return malformed;
    }

    /** @return the JSON token of the malformed value ({@link #malformed()}), or null */
    JsonToken malformedToken() {
        return malformedToken;
    }

    /**
     * @return the token that started the last truthy {@code error} member ({@code START_OBJECT} for an object
     *         with members, {@code VALUE_STRING} for a non-empty string, another token for any other truthy
     *         value), or null when the chunk has none
     */
    JsonToken errorToken() {
        return errorToken;
    }

    /** @return the error's message: {@code error.message} (scalar as text) or the {@code error} string; may be null */
    String errorMessage() {
        return errorMessage;
    }

    /** @return {@code error.type} as text, or null */
    String errorType() {
        return errorType;
    }

    /** @return {@code error.code} as text, or null */
    String errorCode() {
        return errorCode;
    }
}

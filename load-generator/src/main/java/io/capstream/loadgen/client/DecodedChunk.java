package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonToken;

/**
 * What one stream chunk says (spec §4.2), as filled in by {@link ChunkDecoder}: the number of
 * non-empty content and reasoning deltas, the truthy usage, the {@code finish_reason}, a malformed
 * structure the reference would fail on with a {@code TypeError}, and an {@code error} member.
 * Failures are kept as facts (what was malformed, which JSON token), not as text: their wording is
 * {@link ChunkErrors}' job and happens only when a chunk fails.
 *
 * <p>One instance is reused for every payload of a request (no allocation per chunk); its values
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

    /** Creates a chunk with nothing recorded. */
    DecodedChunk() {
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

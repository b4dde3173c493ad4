package io.capstream.loadgen.client;

/**
 * llama.cpp's per-request {@code timings} object as one chunk carried it (the server's own clock; issue 33): prompt
 * tokens taken from the prefix cache, prompt tokens evaluated and their time (the prefill), tokens generated and their
 * time (the decode). A value that is absent, or not a number &ge; 0, is -1. Mutable and reused per chunk, like its
 * {@link DecodedChunk}; not thread-safe.
 */
final class LlamaTimings {
    private long cacheN;
    private long promptN;
    private double promptMs;
    private long predictedN;
    private double predictedMs;

    /** Creates timings with nothing recorded. */
    LlamaTimings() {
        reset();
    }

    /** Clears the values of the previous chunk. */
    void reset() {
        cacheN = -1;
        promptN = -1;
        promptMs = -1;
        predictedN = -1;
        predictedMs = -1;
    }

    /** @param cacheN {@code timings.cache_n}: prompt tokens the server took from its prefix cache, or -1 */
    void cacheN(long cacheN) {
        this.cacheN = cacheN;
    }

    /**
     * Records the prefill and decode figures.
     *
     * @param promptN     {@code timings.prompt_n}: prompt tokens evaluated, or -1
     * @param promptMs    {@code timings.prompt_ms}: prefill time, ms, or -1
     * @param predictedN  {@code timings.predicted_n}: tokens generated, or -1
     * @param predictedMs {@code timings.predicted_ms}: decode time, ms, or -1
     */
    void set(long promptN, double promptMs, long predictedN, double predictedMs) {
        this.promptN = promptN;
        this.promptMs = promptMs;
        this.predictedN = predictedN;
        this.predictedMs = predictedMs;
    }

    /** @return {@code timings.cache_n}, or -1 */
    long cacheN() {
        return cacheN;
    }

    /** @return {@code timings.prompt_n}, or -1 */
    long promptN() {
        return promptN;
    }

    /** @return {@code timings.prompt_ms}, ms, or -1 */
    double promptMs() {
        return promptMs;
    }

    /** @return {@code timings.predicted_n}, or -1 */
    long predictedN() {
        return predictedN;
    }

    /** @return {@code timings.predicted_ms}, ms, or -1 */
    double predictedMs() {
        return predictedMs;
    }
}

package io.capstream.loadgen.client;

/**
 * The raw measurements of one streamed request (spec §4.2, §4.3): time to first output (reasoning
 * or content) and to first content, content, reasoning and tool-call delta counts, the last truthy usage,
 * the last {@code finish_reason}, the number of {@code data:} lines and the largest gap between
 * consecutive ones, and the gaps between consecutive output chunks ({@link OutputChunkGaps}, µs).
 *
 * <p>Tool-call deltas (issue 29) are always counted ({@link #toolCallChunks()}); they are output only in a
 * run that sends tools: there a chunk with a non-empty tool-call delta sets TTFO and TTFT (the first token
 * of the answer) when they are not set yet and counts as an output chunk (gaps), as a content delta does,
 * while {@link #contentChunks()} stays the content deltas. Without tools they change no measurement (the
 * reference's numbers stay exact).
 *
 * <p>Times are {@code atNs − t0} in ns, {@code atNs} being the {@code System.nanoTime()} at which
 * the bytes that completed the chunk (or the data line) arrived; -1 means "not reached". The
 * reference reads two clocks for TTFO and TTFT; one instant is used for both here (spec §4.3).
 * Not thread-safe: one instance per request, used on its event loop.
 */
final class StreamMeasurements {
    private final long t0;
    private final boolean toolsSent;
    private final boolean cacheFromTimings;
    private int toolCallChunks;
    private long timingsCacheN = -1;
    private long ttfo = -1;
    private long ttft = -1;
    private int contentChunks;
    private int reasoningChunks;
    private boolean usageSeen;
    private long promptTokens = -1;
    private long completionTokens = -1;
    private long cachedTokens = -1;
    private String finishReason;
    private int dataLines;
    private long lastDataNs;
    private long maxGapNs = -1;
    private long lastOutputUs = -1;
    private int[] outputGapsUs = new int[16];
    private int outputGaps;
    private int outputGapsDropped;

    /** @param t0Ns the request's t0, {@code System.nanoTime()} just before connecting */
    StreamMeasurements(long t0Ns) {
        this(t0Ns, false, false);
    }

    /**
     * @param t0Ns             the request's t0, {@code System.nanoTime()} just before connecting
     * @param toolsSent        the run sends tools: a non-empty tool-call delta is output (TTFO, TTFT, gaps)
     * @param cacheFromTimings without {@code usage.prompt_tokens_details.cached_tokens}, take llama.cpp's
     *                         {@code timings.cache_n} as the cached tokens (off for the reference's runs, whose
     *                         cache average reads usage only)
     */
    StreamMeasurements(long t0Ns, boolean toolsSent, boolean cacheFromTimings) {
        this.t0 = t0Ns;
        this.toolsSent = toolsSent;
        this.cacheFromTimings = cacheFromTimings;
    }

    /**
     * Counts a {@code data:} line (including {@code [DONE]} and unparseable ones) and measures the gap
     * since the previous one.
     *
     * @param atNs {@code System.nanoTime()} when the line's bytes arrived
     */
    void dataLine(long atNs) {
        if (++dataLines > 1) {
            maxGapNs = Math.max(maxGapNs, atNs - lastDataNs);
        } else {
            maxGapNs = 0;
        }
        lastDataNs = atNs;
    }

    /**
     * Remembers the chunk's usage when it has a truthy one (the last one wins, spec §4.2). Applied even
     * to a chunk that fails otherwise, like the reference, which reads usage first.
     *
     * @param chunk a parsed chunk (not null)
     */
    void usage(DecodedChunk chunk) {
        if (chunk.timings().cacheN() >= 0) {
            timingsCacheN = chunk.timings().cacheN();
        }
        if (chunk.usage()) {
            usageSeen = true;
            promptTokens = chunk.promptTokens();
            completionTokens = chunk.completionTokens();
            cachedTokens = chunk.cachedTokens();
        }
    }

    /**
     * Counts the chunk's deltas, stamps the first output and first content (or, in a run that sends tools,
     * tool-call delta), and remembers its {@code finish_reason} (spec §4.2).
     *
     * @param chunk a parsed, well-formed chunk (not null)
     * @param atNs  {@code System.nanoTime()} when the bytes that completed it arrived
     */
    void output(DecodedChunk chunk, long atNs) {
        int reasoning = chunk.reasoningDeltas();
        int content = chunk.contentDeltas();
        int tools = chunk.toolCallDeltas();
        toolCallChunks += tools;
        boolean toolOutput = toolsSent && tools > 0;
        if (reasoning > 0 || content > 0 || toolOutput) {
            if (ttfo < 0) {
                ttfo = atNs - t0;
            }
            reasoningChunks += reasoning;
            outputChunkAt(atNs);
        }
        if (content > 0 || toolOutput) {
            if (ttft < 0) {
                ttft = atNs - t0;
            }
            contentChunks += content;
        }
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
    }

    /**
     * Records the gap from the previous output chunk (the first {@value OutputChunkGaps#MAX_GAPS} gaps):
     * the difference of the two arrival times after t0 in whole µs, so that the gaps add up exactly to
     * the last output chunk's time minus the first's (delta encoding, no rounding drift).
     */
    private void outputChunkAt(long atNs) {
        long atUs = (atNs - t0) / 1_000L;
        if (lastOutputUs >= 0) {
            if (outputGaps == OutputChunkGaps.MAX_GAPS) {
                outputGapsDropped++;
            } else {
                if (outputGaps == outputGapsUs.length) {
                    outputGapsUs = java.util.Arrays.copyOf(outputGapsUs,
                            Math.min(OutputChunkGaps.MAX_GAPS, outputGapsUs.length * 2));
                }
                outputGapsUs[outputGaps++] = (int) Math.min(Integer.MAX_VALUE, atUs - lastOutputUs);
            }
        }
        lastOutputUs = atUs;
    }

    /** @return the gaps between consecutive output chunks so far (µs), a snapshot */
    OutputChunkGaps outputChunkGaps() {
        return OutputChunkGaps.of(outputGapsUs, outputGaps, outputGapsDropped);
    }

    /** @return time to first output (reasoning or content), ns after t0, or -1 when none */
    long ttfoNs() {
        return ttfo;
    }

    /** @return time to first non-empty content delta, ns after t0, or -1 when none */
    long ttftNs() {
        return ttft;
    }

    /** @return non-empty content deltas counted */
    int contentChunks() {
        return contentChunks;
    }

    /** @return non-empty reasoning deltas counted */
    int reasoningChunks() {
        return reasoningChunks;
    }

    /** @return non-empty tool-call deltas counted (output or not) */
    int toolCallChunks() {
        return toolCallChunks;
    }

    /** @return whether a truthy usage object was seen */
    boolean usageSeen() {
        return usageSeen;
    }

    /** @return usage.prompt_tokens when an integer ≥ 0, else -1 */
    long promptTokens() {
        return promptTokens;
    }

    /** @return usage.completion_tokens when an integer ≥ 0, else -1 */
    long completionTokens() {
        return completionTokens;
    }

    /**
     * @return usage.prompt_tokens_details.cached_tokens when an integer ≥ 0; else, when taken from timings, the
     *         last llama.cpp {@code timings.cache_n} when an integer ≥ 0; else -1
     */
    long cachedTokens() {
        return cachedTokens >= 0 || !cacheFromTimings ? cachedTokens : timingsCacheN;
    }

    /** @return the last finish_reason, or null */
    String finishReason() {
        return finishReason;
    }

    /** @return {@code data:} lines seen */
    int dataLines() {
        return dataLines;
    }

    /** @return the largest gap between consecutive {@code data:} lines as they arrived, ns; -1 before the first */
    long maxGapNs() {
        return maxGapNs;
    }
}

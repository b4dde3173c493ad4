package io.capstream.loadgen.sim;

/** Estimates token counts from text length, the way the simulated engine "tokenises". */
final class TokenEstimator {
    /** Characters per token of the estimate (real tokenisers give about 3.4 on the benchmark prompts, spec §3.3). */
    static final double CHARS_PER_TOKEN = 3.4;

    private TokenEstimator() {
    }

    /** @param chars text length, characters (&gt;= 0) @return ceil(chars / 3.4), at least 1 */
    static int tokens(long chars) {
        return (int) Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN));
    }

    /** @param chars cached prefix length, characters @return floor(chars / 3.4) */
    static int cachedTokens(long chars) {
        return (int) Math.floor(chars / CHARS_PER_TOKEN);
    }
}

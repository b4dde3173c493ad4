package io.capstream.loadgen.run;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run does before its T0 so that it measures the endpoint, not a cold client.
 *
 * @param clientWarmupS  upper bound of the in-process loopback warm-up, seconds: the whole request
 *                       path (connect, upload, SSE framing, chunk JSON decoding, timestamps, event
 *                       building) runs against a loopback stream until its per-request cost stops
 *                       falling, then up to 1,000 requests through the run's own driver and pipeline, at most
 *                       this long in all; 0 = off (default {@value #DEFAULT_CLIENT_WARMUP_S})
 * @param targetRequests {@code --warmup-requests}: requests sent to the target and discarded before
 *                       T0 (never in the events or the report), as vLLM's {@code --num-warmups}; 0 = none
 * @param primeCache     {@code --warmup-prime-cache}: the warm-up requests' prompts share the measured prompts' prefix
 *                       (the run's shared prefix and salt), so the measured requests start with the engine's prefix
 *                       cache already holding it; false (the default) gives them a prefix of their own (a warm-up
 *                       prompt salt), so the warm-up warms the engine but not its prefix cache for the run
 */
public record WarmupConfig(double clientWarmupS, int targetRequests, boolean primeCache) {
    /** Default loopback warm-up bound, seconds. */
    public static final double DEFAULT_CLIENT_WARMUP_S = 5.0;
    /** Largest loopback warm-up bound, seconds. */
    public static final double MAX_CLIENT_WARMUP_S = 600.0;
    /** The defaults: loopback warm-up up to 5 s, no target warm-up requests. */
    public static final WarmupConfig DEFAULTS = new WarmupConfig(DEFAULT_CLIENT_WARMUP_S, 0);
    /** No warm-up at all (tests that count every request). */
    public static final WarmupConfig NONE = new WarmupConfig(0, 0);

    /**
     * Warm-up whose target requests do not prime the prefix cache.
     *
     * @param clientWarmupS  loopback warm-up bound, seconds
     * @param targetRequests {@code --warmup-requests}
     */
    public WarmupConfig(double clientWarmupS, int targetRequests) {
        this(clientWarmupS, targetRequests, false);
    }

    /** @return one message per out-of-range value (empty when valid) */
    public List<String> validate() {
        List<String> errors = new ArrayList<>();
        if (!Double.isFinite(clientWarmupS) || clientWarmupS < 0 || clientWarmupS > MAX_CLIENT_WARMUP_S) {
            errors.add("--client-warmup must be between 0 and " + (int) MAX_CLIENT_WARMUP_S + " s, got "
                    + java.math.BigDecimal.valueOf(clientWarmupS).stripTrailingZeros().toPlainString() + " s");
        }
        if (targetRequests < 0 || targetRequests > RunConfig.MAX_REQUESTS) {
            errors.add("--warmup-requests must be between 0 and " + RunConfig.MAX_REQUESTS + ", got " + targetRequests);
        }
        return errors;
    }
}

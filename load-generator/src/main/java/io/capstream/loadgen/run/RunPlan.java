package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.loadgen.workload.RequestPlan;

/**
 * Everything resolved before the first request (spec §5 step 1): the config, the context window
 * (explicit or probed), the prompt cap and the full context plan. Built by {@link RunPlanner}.
 *
 * @param config      the validated run parameters
 * @param maxModelLen explicit {@code --max-model-len} or the probed window, tokens; null when unknown
 * @param contextPlan the clamped plan of every request (spec §3.1)
 * @param apiKey      the key for the Authorization header (hidden in toString)
 * @param requestPlan per-request {@code max_tokens} and dataset messages; null = {@link RequestPlan#SYNTHETIC}
 * @param warnings    one-line warnings of the endpoint check (window unknown, {@code --model} not listed) for
 *                    the command to print; null means none
 */
public record RunPlan(RunConfig config, Integer maxModelLen, ContextPlan contextPlan, ApiKey apiKey,
                      RequestPlan requestPlan, java.util.List<String> warnings) {

    /** Fills a null request plan with {@link RequestPlan#SYNTHETIC} and null warnings with none. */
    public RunPlan {
        requestPlan = requestPlan == null ? RequestPlan.SYNTHETIC : requestPlan;
        warnings = warnings == null ? java.util.List.of() : java.util.List.copyOf(warnings);
    }

    /**
     * A plan without warnings.
     *
     * @param config      the validated run parameters
     * @param maxModelLen the window, tokens, or null
     * @param contextPlan the plan
     * @param apiKey      the key
     * @param requestPlan per-request {@code max_tokens} and messages, or null
     */
    public RunPlan(RunConfig config, Integer maxModelLen, ContextPlan contextPlan, ApiKey apiKey,
                   RequestPlan requestPlan) {
        this(config, maxModelLen, contextPlan, apiKey, requestPlan, null);
    }

    /**
     * @param list the endpoint check's warnings; not null
     * @return a copy carrying them
     */
    public RunPlan withWarnings(java.util.List<String> list) {
        return new RunPlan(config, maxModelLen, contextPlan, apiKey, requestPlan, list);
    }

    /**
     * The reference's workload (synthetic prompts, {@code --max-tokens} for every request).
     *
     * @param config      the validated run parameters
     * @param maxModelLen the window, tokens, or null
     * @param contextPlan the plan
     * @param apiKey      the key
     */
    public RunPlan(RunConfig config, Integer maxModelLen, ContextPlan contextPlan, ApiKey apiKey) {
        this(config, maxModelLen, contextPlan, apiKey, RequestPlan.SYNTHETIC);
    }

    /** @return the largest {@code max_tokens} any request sends, tokens ({@code --max-tokens} unless per request) */
    public int largestMaxTokens() {
        return requestPlan.largestMaxTokens(config.request().maxTokens());
    }

    /** @return n, the number of planned requests (the upper bound for a time-bounded closed loop) */
    public int requests() {
        return contextPlan.size();
    }

    /** @return prompt cap = maxModelLen − maxTokens − margin, tokens; null when the window is unknown (spec §2.1) */
    public Integer cap() {
        return contextPlan.cap();
    }
}

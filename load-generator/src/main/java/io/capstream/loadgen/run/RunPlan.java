package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;

/**
 * Everything resolved before the first request (spec §5 step 1): the config, the context window
 * (explicit or probed), the prompt cap and the full context plan. Built by {@link RunPlanner}.
 *
 * @param config      the validated run parameters
 * @param maxModelLen explicit {@code --max-model-len} or the probed window, tokens; null when unknown
 * @param contextPlan the clamped plan of every request (spec §3.1)
 * @param apiKey      the key for the Authorization header (hidden in toString)
 */
public record RunPlan(RunConfig config, Integer maxModelLen, ContextPlan contextPlan, ApiKey apiKey) {

    /** @return n, the number of planned requests (the upper bound for a time-bounded closed loop) */
    public int requests() {
        return contextPlan.size();
    }

    /** @return prompt cap = maxModelLen − maxTokens − margin, tokens; null when the window is unknown (spec §2.1) */
    public Integer cap() {
        return contextPlan.cap();
    }
}

package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunStatistics;
import java.util.List;

/**
 * The statistics of the endpoints that do not stream (issue 30: embeddings and rerank), whose events carry
 * {@code inputs}: they have no first token, so no §7 row and no TTFT, decode or E2E percentiles (the anvil
 * {@code metrics} stay empty for them); instead, over their completed requests:
 * <ul>
 *   <li>{@code request_latency_ms}: {@link Distributions} of {@code e2e_ns / 1e6} (send to the end of the answer), ms;</li>
 *   <li>{@code inputs_per_s}: the sum of {@code inputs} / wall s, inputs/s;</li>
 *   <li>{@code input_tokens_per_s}: the sum of {@code prompt_tokens} (usage) / wall s, tokens/s; null when no request
 *       reported usage.</li>
 * </ul>
 * The rates are null without a usable wall clock ({@link WallClock#usable}); all three stay null when no completed
 * request carries {@code inputs} (the generation endpoints: their reports are unchanged). Pure; thread-safe.
 */
public final class InputsStatistics {
    private InputsStatistics() {
    }

    /**
     * @param c a completed request
     * @return whether it is an embeddings or rerank request (its event carries {@code inputs})
     */
    public static boolean nonStreamed(RequestCompleted c) {
        return c.getInputs() != null;
    }

    /**
     * Sets the three fields on {@code stats} from the completed requests that carry {@code inputs}.
     *
     * @param stats       the run's statistics; changed in place; not null
     * @param successes   every completed request; not null
     * @param wallSeconds the run's wall clock, s; null when unknown
     * @return {@code stats}
     */
    public static RunStatistics addTo(RunStatistics stats, List<RequestCompleted> successes, Double wallSeconds) {
        int n = 0;
        for (RequestCompleted c : successes) {
            if (nonStreamed(c)) {
                n++;
            }
        }
        if (n == 0) {
            return stats;
        }
        double[] latencyMs = new double[n];
        long inputs = 0;
        long tokens = 0;
        boolean usage = false;
        int i = 0;
        for (RequestCompleted c : successes) {
            if (!nonStreamed(c)) {
                continue;
            }
            latencyMs[i++] = c.getE2eNs() / 1e6;
            inputs += c.getInputs();
            if (c.getPromptTokens() != null && c.getPromptTokens() >= 0) {
                tokens += c.getPromptTokens();
                usage = true;
            }
        }
        boolean wall = WallClock.usable(wallSeconds);
        stats.setRequestLatencyMs(Distributions.of(latencyMs));
        stats.setInputsPerS(wall ? inputs / wallSeconds : null);
        stats.setInputTokensPerS(wall && usage ? tokens / wallSeconds : null);
        return stats;
    }
}

package io.capstream.loadgen.workload;

/**
 * What each request sends besides its planned context ({@link ContextPlan}): its {@code max_tokens} and,
 * with a {@code --dataset}, its messages. {@link #SYNTHETIC} is the reference's workload (the synthetic prompt,
 * {@code --max-tokens} for every request). Immutable.
 */
public final class RequestPlan {
    /** The reference's workload: synthetic prompts and the run's {@code --max-tokens} for every request. */
    public static final RequestPlan SYNTHETIC = new RequestPlan(null, null);

    private final Dataset dataset;
    private final int[] maxTokens;

    private RequestPlan(Dataset dataset, int[] maxTokens) {
        this.dataset = dataset;
        this.maxTokens = maxTokens;
    }

    /**
     * @param dataset   the dataset whose entries the requests send, or null for synthetic prompts
     * @param maxTokens {@code max_tokens} of request i (warm-up request n + k uses element k mod n), tokens; null
     *                  = the run's {@code --max-tokens} for every request
     * @return the plan
     */
    public static RequestPlan of(Dataset dataset, int[] maxTokens) {
        return dataset == null && maxTokens == null ? SYNTHETIC
                : new RequestPlan(dataset, maxTokens == null ? null : maxTokens.clone());
    }

    /** @return the dataset, or null for synthetic prompts */
    public Dataset dataset() {
        return dataset;
    }

    /**
     * @param request  request index (&gt;= 0)
     * @param fallback the run's {@code --max-tokens}
     * @return the request's {@code max_tokens}, tokens
     */
    public int maxTokens(int request, int fallback) {
        return maxTokens == null || maxTokens.length == 0 ? fallback : maxTokens[request % maxTokens.length];
    }

    /**
     * @param fallback the run's {@code --max-tokens}
     * @return the largest {@code max_tokens} any request sends, tokens (what the context-window rule uses)
     */
    public int largestMaxTokens(int fallback) {
        if (maxTokens == null || maxTokens.length == 0) {
            return fallback;
        }
        int m = 1;
        for (int v : maxTokens) {
            m = Math.max(m, v);
        }
        return m;
    }
}

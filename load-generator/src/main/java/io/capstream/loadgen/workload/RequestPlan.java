package io.capstream.loadgen.workload;

/**
 * What each request sends besides its planned context ({@link ContextPlan}): its {@code max_tokens} and,
 * with a {@code --dataset}, its messages. {@link #SYNTHETIC} is the reference's workload (the synthetic prompt,
 * {@code --max-tokens} for every request). Immutable.
 */
public final class RequestPlan {
    /** The reference's workload: synthetic prompts and the run's {@code --max-tokens} for every request. */
    public static final RequestPlan SYNTHETIC = new RequestPlan(null, null, 1.0, null);

    private final Dataset dataset;
    private final int[] maxTokens;
    private final double promptScale;
    private final String tokenizer;
    private final long[] arrivalOffsetsNs;

    private RequestPlan(Dataset dataset, int[] maxTokens, double promptScale, String tokenizer) {
        this(dataset, maxTokens, promptScale, tokenizer, null);
    }

    private RequestPlan(Dataset dataset, int[] maxTokens, double promptScale, String tokenizer, long[] arrivalOffsetsNs) {
        this.dataset = dataset;
        this.maxTokens = maxTokens;
        this.promptScale = promptScale;
        this.tokenizer = tokenizer;
        this.arrivalOffsetsNs = arrivalOffsetsNs;
    }

    /**
     * @param offsetsNs a trace's arrival offsets ({@code --trace}), ns after T0, one per request; not null
     * @return a copy whose requests arrive at those offsets
     */
    public RequestPlan withArrivals(long[] offsetsNs) {
        return new RequestPlan(dataset, maxTokens, promptScale, tokenizer, offsetsNs.clone());
    }

    /** @return a trace's arrival offsets, ns after T0 (a copy), or null when the run's arrival process sets them */
    public long[] arrivalOffsetsNs() {
        return arrivalOffsetsNs == null ? null : arrivalOffsetsNs.clone();
    }

    /**
     * @param dataset   the dataset whose entries the requests send, or null for synthetic prompts
     * @param maxTokens {@code max_tokens} of request i (warm-up request n + k uses element k mod n), tokens; null
     *                  = the run's {@code --max-tokens} for every request
     * @return the plan
     */
    public static RequestPlan of(Dataset dataset, int[] maxTokens) {
        return of(dataset, maxTokens, 1.0, null);
    }

    /**
     * @param dataset     the dataset whose entries the requests send, or null for synthetic prompts
     * @param maxTokens   {@code max_tokens} per request (see {@link #of(Dataset, int[])}), or null
     * @param promptScale synthetic prompts are built at {@code planned × promptScale} estimated tokens (3 characters
     *                    each), so that a real tokenizer counts about {@code planned}; 1.0 = the estimate (&gt; 0)
     * @param tokenizer   the file name of the tokenizer that counted, or null for the estimate
     * @return the plan
     */
    public static RequestPlan of(Dataset dataset, int[] maxTokens, double promptScale, String tokenizer) {
        return dataset == null && maxTokens == null && promptScale == 1.0 && tokenizer == null ? SYNTHETIC
                : new RequestPlan(dataset, maxTokens == null ? null : maxTokens.clone(), promptScale, tokenizer);
    }

    /**
     * @param planned a request's planned context, tokens (by the tokenizer, when one counted)
     * @return the size to build its synthetic prompt at, estimated tokens: {@code round(planned × promptScale)},
     *         at least 1; {@code planned} itself without a tokenizer
     */
    public int promptTokens(int planned) {
        return promptScale == 1.0 ? planned : (int) Math.max(1, Math.round(planned * promptScale));
    }

    /** @return the file name of the tokenizer that counted the tokens, or null for the reference's estimate */
    public String tokenizer() {
        return tokenizer;
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

package io.capstream.loadgen.workload;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The planned (clamped) context of every request, computed in full before any request is sent
 * (spec §3.1): a fixed {@code --ctx-tokens}, or one draw of {@link PythonRandom#random()} per
 * request mapped through the bucket table, then clamped to the prompt cap. Immutable.
 */
public final class ContextPlan {
    private static final double[] BOUNDS = {0.218, 0.602, 0.906, 0.995, 1.0};
    private static final int[] TOKENS = {16000, 32768, 65536, 131072, 262144};

    private final int[] planned;
    private final Integer cap;

    private ContextPlan(int[] planned, Integer cap) {
        this.planned = planned;
        this.cap = cap;
    }

    /**
     * Builds the plan (spec §3.1).
     *
     * @param n         number of requests, ≥ 0
     * @param ctxTokens fixed context in tokens, or 0 to sample (the generator is consumed only then)
     * @param seed      plan seed
     * @param cap       prompt cap in tokens (maxModelLen − maxTokens − margin), or null when unknown
     * @return the plan
     */
    public static ContextPlan build(int n, int ctxTokens, long seed, Integer cap) {
        int[] p = new int[n];
        PythonRandom rng = ctxTokens == 0 ? new PythonRandom(seed) : null;
        for (int i = 0; i < n; i++) {
            int raw = ctxTokens != 0 ? ctxTokens : bucket(rng.random());
            p[i] = cap == null ? raw : Math.min(raw, cap);
        }
        return new ContextPlan(p, cap);
    }

    /**
     * A plan whose contexts are given (a dataset's prompt lengths, or {@code --input-tokens} draws).
     *
     * @param planned each request's planned context, tokens, already clamped to the cap
     * @param cap     prompt cap in tokens, or null when unknown
     * @return the plan (a copy of {@code planned})
     */
    public static ContextPlan of(int[] planned, Integer cap) {
        return new ContextPlan(planned.clone(), cap);
    }

    /**
     * @param r a draw in [0, 1)
     * @return the first bucket whose inclusive upper bound is ≥ r, tokens
     */
    public static int bucket(double r) {
        for (int i = 0; i < BOUNDS.length; i++) {
            if (r <= BOUNDS[i]) {
                return TOKENS[i];
            }
        }
        return TOKENS[TOKENS.length - 1];
    }

    /** @return n */
    public int size() {
        return planned.length;
    }

    /**
     * @param i request index, 0-based
     * @return its clamped planned context, tokens
     */
    public int planned(int i) {
        return planned[i];
    }

    /** @return the prompt cap in tokens, or null when unknown */
    public Integer cap() {
        return cap;
    }

    /** @return a copy of the plan, tokens per request index */
    public int[] toArray() {
        return planned.clone();
    }

    /**
     * @return {@code context_distribution}: decimal string of each planned value to its count,
     *         keys sorted lexically as in the artifact (spec §3.1, §9.1)
     */
    public Map<String, Integer> distribution() {
        TreeMap<String, Integer> m = new TreeMap<>();
        for (int v : planned) {
            m.merge(Integer.toString(v), 1, Integer::sum);
        }
        return new LinkedHashMap<>(m);
    }

    @Override
    public String toString() {
        return "ContextPlan[n=" + planned.length + ", cap=" + cap + ", distribution=" + distribution() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ContextPlan c && Arrays.equals(planned, c.planned) && java.util.Objects.equals(cap, c.cap);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(planned) * 31 + (cap == null ? 0 : cap);
    }
}

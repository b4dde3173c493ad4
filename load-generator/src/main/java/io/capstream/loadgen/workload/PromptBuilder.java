package io.capstream.loadgen.workload;

/**
 * Builds the prompt text of each request exactly like the reference (spec §3.3): a shared prefix of
 * {@code floor(3 × sharedPrefixTokens)} filler characters built once per run, then a request-specific
 * filler starting at helper number {@code i}, then the tail {@code "\n# request i: summarize the above
 * in one line."}. A prompt is {@code floor(3 × planned)} ASCII characters long. Immutable, thread-safe.
 */
public final class PromptBuilder {
    /** Characters per token assumed by the reference (spec §3.3). */
    public static final double CHARS_PER_TOKEN = 3.0;
    /** Failure text when the planned context cannot hold the tail (spec §3.3). */
    public static final String TOO_SMALL = "context target is too small for the benchmark prompt envelope";

    private final String shared;

    /** @param sharedPrefixTokens {@code --shared-prefix-tokens}; ≤ 0 means no shared prefix */
    public PromptBuilder(int sharedPrefixTokens) {
        if (sharedPrefixTokens <= 0) {
            shared = "";
        } else {
            int cb = (int) Math.floor(sharedPrefixTokens * CHARS_PER_TOKEN);
            StringBuilder sb = new StringBuilder(cb + 100);
            fill(sb, cb, 0);
            sb.setLength(cb);
            shared = sb.toString();
        }
    }

    /** @return the shared prefix S (empty when disabled) */
    public String sharedPrefix() {
        return shared;
    }

    /**
     * @param i request index
     * @return the request tail, e.g. {@code "\n# request 0: summarize the above in one line."} (46 chars for i = 0)
     */
    public static String tail(int i) {
        return "\n# request " + i + ": summarize the above in one line.";
    }

    /**
     * Appends filler lines {@code k = 0, 1, …} ({@code A = offset + k}, {@code B = k}) until the
     * appended text is at least {@code budget} characters; the caller truncates.
     *
     * @param sb     destination
     * @param budget characters wanted
     * @param offset first helper number
     */
    static void fill(StringBuilder sb, int budget, int offset) {
        int start = sb.length();
        for (int k = 0; sb.length() - start < budget; k++) {
            sb.append("def helper_").append(offset + k).append("():\n    return compute(").append(k)
                    .append(")  # routine specialist context\n");
        }
    }

    /**
     * @param i       request index
     * @param planned its planned (clamped) context, tokens
     * @return the prompt
     * @throws PromptTooSmallException when {@code floor(3 × planned)} cannot hold the tail
     */
    public String prompt(int i, int planned) throws PromptTooSmallException {
        int total = (int) Math.floor(planned * CHARS_PER_TOKEN);
        String tail = tail(i);
        if (total <= tail.length()) {
            throw new PromptTooSmallException();
        }
        int unique = total - shared.length() - tail.length() - 1;
        if (unique <= 0) {
            int keep = Math.max(0, total - tail.length());
            return shared.substring(0, Math.min(keep, shared.length())) + tail;
        }
        StringBuilder sb = new StringBuilder(total + 120);
        sb.append(shared).append('\n');
        int uStart = sb.length();
        fill(sb, unique, i);
        sb.setLength(uStart + unique);
        sb.append(tail);
        return sb.toString();
    }

    /** The planned context is too small for the prompt envelope (a ValueError request failure, spec §3.3). */
    public static final class PromptTooSmallException extends Exception {
        private static final long serialVersionUID = 1L;

        PromptTooSmallException() {
            super(TOO_SMALL, null, false, false);
        }
    }
}

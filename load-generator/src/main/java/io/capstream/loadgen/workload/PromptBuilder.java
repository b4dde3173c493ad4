package io.capstream.loadgen.workload;

/**
 * Builds the prompt text of each request exactly like the reference (spec §3.3): a shared prefix of
 * {@code floor(3 × sharedPrefixTokens)} filler characters built once per run, then a request-specific
 * filler starting at helper number {@code i}, then the tail {@code "\n# request i: summarize the above
 * in one line."}. A prompt is {@code floor(3 × planned)} ASCII characters long. Immutable, thread-safe.
 *
 * <p>capstream addition (not in the reference): an optional <em>prompt salt</em>, a short text such as
 * {@code "# run 3f9a1c2b7d4e\n"} that replaces the first characters of every prompt of a run (never the request's
 * tail). The requests of one run still share their shared prefix with each other, but no two runs with different
 * salts share a cached prefix, so a series of runs against one engine (a sweep's steps, warm-ups before a run)
 * measures the engine at each load, not its prefix cache warmed by the run before. The prompt's length is
 * unchanged. Without a salt the prompts are the reference's, byte for byte (spec §3.3 test vectors).
 */
public final class PromptBuilder {
    /** Characters per token assumed by the reference (spec §3.3). */
    public static final double CHARS_PER_TOKEN = 3.0;
    /** Failure text when the planned context cannot hold the tail (spec §3.3). */
    public static final String TOO_SMALL = "context target is too small for the benchmark prompt envelope";

    /** Length of the random part of {@link #randomSalt(String, java.util.random.RandomGenerator)}, hex digits. */
    public static final int SALT_HEX_DIGITS = 12;

    private final String shared;
    private final String salt;

    /** @param sharedPrefixTokens {@code --shared-prefix-tokens}; ≤ 0 means no shared prefix */
    public PromptBuilder(int sharedPrefixTokens) {
        this(sharedPrefixTokens, null);
    }

    /**
     * @param sharedPrefixTokens {@code --shared-prefix-tokens}; ≤ 0 means no shared prefix
     * @param salt               the run's prompt salt, replacing the first characters of each prompt (as many as fit
     *                           before the tail); null or empty = the reference's prompts
     */
    public PromptBuilder(int sharedPrefixTokens, String salt) {
        this.salt = salt == null || salt.isEmpty() ? null : salt;
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

    /**
     * A fresh prompt salt: {@code "# <label> "} then {@value #SALT_HEX_DIGITS} random hex digits and a line end, e.g.
     * {@code "# run 3f9a1c2b7d4e\n"} (19 characters for the label {@code run}).
     *
     * @param label  a word naming what the salt is for ({@code run}, {@code warm-up}); not null
     * @param random the source of the digits; not null
     * @return the salt
     */
    public static String randomSalt(String label, java.util.random.RandomGenerator random) {
        String hex = Long.toHexString(random.nextLong() & ((1L << (4 * SALT_HEX_DIGITS)) - 1));
        return "# " + label + " " + "0".repeat(SALT_HEX_DIGITS - hex.length()) + hex + "\n";
    }

    /** @return the prompt salt, or null when the prompts are the reference's */
    public String salt() {
        return salt;
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
        StringBuilder sb = new StringBuilder(total + 120);
        if (unique <= 0) {
            int keep = Math.max(0, total - tail.length());
            sb.append(shared, 0, Math.min(keep, shared.length()));
        } else {
            sb.append(shared).append('\n');
            int uStart = sb.length();
            fill(sb, unique, i);
            sb.setLength(uStart + unique);
        }
        if (salt != null) {
            int n = Math.min(salt.length(), sb.length());
            sb.replace(0, n, salt.substring(0, n));
        }
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

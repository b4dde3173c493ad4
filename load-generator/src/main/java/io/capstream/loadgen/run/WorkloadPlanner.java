package io.capstream.loadgen.run;

import io.capstream.loadgen.conversation.DatasetConversations;
import io.capstream.loadgen.workload.Dataset;
import io.capstream.loadgen.workload.DatasetEntry;
import io.capstream.loadgen.workload.DatasetReader;
import io.capstream.loadgen.workload.HfTokenCounter;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.TokenCounter;
import java.util.List;

/**
 * The per-request lengths of {@code --dataset}, {@code --input-tokens} and {@code --output-tokens} (internal to
 * {@link RunPlanner}): reading the dataset, each request's {@code max_tokens} and each request's planned context.
 * All deterministic for a given file and seed.
 */
final class WorkloadPlanner {
    private WorkloadPlanner() {
    }

    /** Largest synthetic prompt a tokenizer counts to calibrate {@code --input-tokens}, tokens. */
    static final int CALIBRATION_MAX_TOKENS = 32_768;

    /**
     * What the run reads before it is planned: the {@code --dataset}'s entries and, with {@code --tokenizer} and
     * {@code --input-tokens}, the scale of the synthetic prompts.
     *
     * @param dataset     the dataset, or null without {@code --dataset}
     * @param promptScale synthetic prompts are built at {@code planned × promptScale} estimated tokens (1.0 without
     *                    a tokenizer)
     * @param tokenizer   the tokenizer file's name, or null without {@code --tokenizer}
     */
    record Inputs(Dataset dataset, double promptScale, String tokenizer, long[] arrivalOffsetsNs) {
        /** Nothing to read: the reference's workload, or lengths by the estimate. */
        static final Inputs NONE = new Inputs(null, 1.0, null, null);

        Inputs(Dataset dataset, double promptScale, String tokenizer) {
            this(dataset, promptScale, tokenizer, null);
        }
    }

    /**
     * Reads {@code --dataset} (counting with {@code --tokenizer} when given), keeping the entries the run can use,
     * and calibrates the synthetic prompts of {@code --input-tokens} with the tokenizer: it counts the tokens t of
     * the run's synthetic prompt at the mean length m (at most {@value #CALIBRATION_MAX_TOKENS}) and builds every
     * prompt at m / t times its planned length (twice: the second count is of the scaled prompt), so that the
     * tokenizer counts about the planned length (exactly only near the mean: the filler's tokens per character
     * vary a little with its length).
     *
     * @param config a validated config
     * @param n      planned requests
     * @return what was read; {@link Inputs#NONE} when there is nothing to read
     * @throws UsageException when the file or the tokenizer is unusable (one line each)
     */
    static Inputs inputs(RunConfig config, int n) throws UsageException {
        RequestShape r = config.request();
        if (config.load().arrival() == io.capstream.loadgen.arrival.ArrivalMode.TRACE) {
            // --trace: the file is a Mooncake trace (its prompts are built from its hash ids, its timestamps arrive)
            try {
                io.capstream.loadgen.workload.TraceReader.Trace t = io.capstream.loadgen.workload.TraceReader.read(
                        r.dataset(), n);
                return new Inputs(t.dataset(), 1.0, null, t.offsetsNs());
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (r.tokenizer() == null) {
            return r.dataset() == null ? Inputs.NONE : new Inputs(read(config, n, TokenCounter.ESTIMATE), 1.0, null);
        }
        try (HfTokenCounter counter = HfTokenCounter.open(r.tokenizer())) {
            Dataset ds = r.dataset() == null ? null : read(config, n, counter);
            double scale = 1.0;
            if (r.inputTokens() != null) {
                int m = (int) Math.max(RequestShape.MIN_INPUT_TOKENS,
                        Math.min(CALIBRATION_MAX_TOKENS, Math.round(r.inputTokens().mean())));
                PromptBuilder prompts = new PromptBuilder(r.sharedPrefixTokens());
                for (int round = 0; round < 2; round++) {
                    // a second round corrects for the part of the prompt that is shared prefix
                    int t = counter.count(prompts.prompt(0, (int) Math.max(1, Math.round(m * scale))));
                    scale = t <= 0 ? scale : scale * m / t;
                }
            }
            return new Inputs(ds, scale, counter.name());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (PromptBuilder.PromptTooSmallException e) {
            throw new IllegalStateException(e); // m >= 32 tokens always holds the envelope
        }
    }

    private static Dataset read(RunConfig config, int n, TokenCounter counter) throws UsageException {
        long keep = (long) n + config.warmup().targetRequests();
        Dataset ds;
        try {
            ds = DatasetReader.read(config.request().dataset(), (int) Math.min(keep, DatasetReader.MAX_ENTRIES), counter);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return withTurns(config, ds);
    }

    /**
     * {@code --turns} with a multi-turn dataset: without it the dataset's conversations set the turns; exactly
     * {@code --turns 1} sends each conversation's first turn alone ({@link Dataset#firstTurns()}: the single-turn
     * run of the same file before issue 29, as vLLM's bench reads ShareGPT); any other {@code --turns} is a usage
     * error.
     *
     * @param config the config
     * @param ds     the dataset as read
     * @return the dataset the run sends
     * @throws UsageException for {@code --turns} other than 1 with a multi-turn dataset
     */
    static Dataset withTurns(RunConfig config, Dataset ds) throws UsageException {
        LengthDistribution turns = config.conversation().turns();
        if (!ds.multiTurn() || turns == null) {
            return ds;
        }
        if (turns.mean() == 1 && turns.stddev() == 0) {
            return ds.firstTurns();
        }
        throw new UsageException("--turns cannot be combined with --dataset " + ds.name() + ": its multi-turn"
                + " conversations set the turns (give no --turns, or --turns 1 to send each conversation's first turn"
                + " alone)");
    }

    /**
     * Each request's {@code max_tokens}: a draw of {@code --output-tokens} (in 1..{@value RequestShape#MAX_OUTPUT_TOKENS});
     * else the dataset entry's own length (its {@code max_tokens}, or the ShareGPT reply's tokens, at most
     * {@value RequestShape#MAX_OUTPUT_TOKENS}) or {@code --max-tokens} for an entry without one; else null. In a
     * multi-turn dataset request i is a turn of a conversation ({@link DatasetConversations}) and the entry's own
     * length is that turn's.
     *
     * @param config the config
     * @param n      planned requests
     * @param ds     the dataset, or null
     * @return n values, tokens, or null when every request sends {@code --max-tokens}
     */
    static int[] maxTokens(RunConfig config, int n, Dataset ds) {
        LengthDistribution out = config.request().outputTokens();
        if (out != null) {
            return out.sample(n, config.identity().seed(), LengthDistribution.OUTPUT_SALT, 1, RequestShape.MAX_OUTPUT_TOKENS);
        }
        if (ds == null || ds.entries().stream().allMatch(e -> e.outputTokens() == null)) {
            return null;
        }
        int[] m = new int[n];
        if (ds.multiTurn()) {
            if (ds.entries().stream().allMatch(e -> e.turns().stream().allMatch(t -> t.maxTokens() == null))) {
                return null;
            }
            DatasetConversations script = DatasetConversations.of(ds, n);
            for (int c = 0; c < script.conversations(); c++) {
                for (int t = 1; t <= script.turns(c); t++) {
                    Integer own = script.userTurn(c, t).maxTokens();
                    m[script.firstRequest(c) + t - 1] = own == null ? config.request().maxTokens()
                            : Math.min(own, RequestShape.MAX_OUTPUT_TOKENS);
                }
            }
            return m;
        }
        for (int i = 0; i < n; i++) {
            Integer own = ds.entry(i).outputTokens();
            m[i] = own == null ? config.request().maxTokens() : Math.min(own, RequestShape.MAX_OUTPUT_TOKENS);
        }
        return m;
    }

    /**
     * Each request's planned context: the dataset entry's prompt tokens (an entry over the cap is a usage error,
     * reported once with the number of such requests; in a multi-turn dataset, see {@link #plannedTurns}), or a draw of {@code --input-tokens} (in
     * {@value RequestShape#MIN_INPUT_TOKENS}..{@value RequestShape#MAX_INPUT_TOKENS}, then clamped to the cap).
     *
     * @param config the config (with {@code --dataset} or {@code --input-tokens})
     * @param n      planned requests
     * @param ds     the dataset, or null
     * @param cap    the prompt cap, tokens, or null when the window is unknown
     * @param errors where a usage error goes
     * @return n planned contexts, tokens
     */
    static int[] planned(RunConfig config, int n, Dataset ds, Integer cap, List<String> errors) {
        int[] p;
        if (ds != null && ds.multiTurn()) {
            return plannedTurns(config, n, ds, cap, errors);
        }
        if (ds != null) {
            p = new int[n];
            int over = 0;
            String first = null;
            for (int i = 0; i < n; i++) {
                DatasetEntry e = ds.entry(i);
                p[i] = e.promptTokens();
                if (cap != null && p[i] > cap) {
                    if (over++ == 0) {
                        first = "request " + i + " (entry " + Math.floorMod(i, ds.size()) + ") has " + p[i] + " prompt tokens";
                    }
                }
            }
            if (over > 0) {
                errors.add("--dataset " + ds.name() + ": " + over + " request(s) exceed the prompt cap of " + cap
                        + " tokens (window - largest max_tokens - --margin); first: " + first);
            }
            return p;
        }
        p = config.request().inputTokens().sample(n, config.identity().seed(), LengthDistribution.INPUT_SALT,
                RequestShape.MIN_INPUT_TOKENS, RequestShape.MAX_INPUT_TOKENS);
        if (cap != null) {
            for (int i = 0; i < n; i++) {
                p[i] = Math.min(p[i], cap);
            }
        }
        return p;
    }

    /**
     * Each request's planned context in a multi-turn dataset: its conversation's new messages up to its turn plus
     * the answers before it, each counted as its request's {@code max_tokens} ({@link #maxTokens}). A conversation
     * whose last planned turn is over the cap is a usage error, reported once with the number of such
     * conversations and the first of them.
     *
     * @param config the config (with a multi-turn {@code --dataset})
     * @param n      planned requests
     * @param ds     the dataset
     * @param cap    the prompt cap, tokens, or null when the window is unknown
     * @param errors where a usage error goes
     * @return n planned contexts, tokens (at most {@link Integer#MAX_VALUE})
     */
    static int[] plannedTurns(RunConfig config, int n, Dataset ds, Integer cap, List<String> errors) {
        DatasetConversations script = DatasetConversations.of(ds, n);
        int[] m = maxTokens(config, n, ds);
        int[] p = new int[n];
        int over = 0;
        String first = null;
        for (int c = 0; c < script.conversations(); c++) {
            int r = script.firstRequest(c);
            long context = 0;
            for (int t = 1; t <= script.turns(c); t++, r++) {
                if (t > 1) {
                    context += m == null ? config.request().maxTokens() : m[r - 1];
                }
                context += script.userTurn(c, t).promptTokens();
                p[r] = (int) Math.min(Integer.MAX_VALUE, context);
            }
            if (cap != null && context > cap && over++ == 0) {
                first = "conversation " + c + " (entry " + Math.floorMod(c, ds.size()) + ") reaches " + context
                        + " prompt tokens at turn " + script.turns(c);
            }
        }
        if (over > 0) {
            errors.add("--dataset " + ds.name() + ": " + over + " conversation(s) outgrow the prompt cap of " + cap
                    + " tokens (window - largest max_tokens - --margin; a turn's prompt holds its conversation's"
                    + " messages so far and the answers before it at their max_tokens); first: " + first);
        }
        return p;
    }
}

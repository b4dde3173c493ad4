package io.capstream.loadgen.conversation;

import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.PromptBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;

/**
 * The synthetic conversations of {@code --turns} (issue 29): each conversation's turns are a draw of
 * {@code --turns MEAN[,STDDEV]} (normal, seeded by {@code --seed}, rounded, at least 1); conversations are planned
 * until their turns add up to the run's requests, the last one shortened. Turn 1 sends the reference's prompt for its
 * request index (shared prefix plus planned context); a later turn's new user message is a fresh synthetic prompt of
 * its request index's planned context without the shared prefix (so the history grows by it and the answer).
 * Deterministic for a given seed. Immutable, thread-safe.
 */
public final class SyntheticConversations implements ConversationScript {
    /** Salt of the turn-count draws (so they differ from the length draws of the same seed). */
    public static final long TURNS_SALT = 0x7475726e73L;

    private final int[] first;
    private final int[] turns;
    private final PromptBuilder firstPrompts;
    private final PromptBuilder laterPrompts;
    private final IntUnaryOperator planned;
    private final IntUnaryOperator maxTokens;

    /**
     * @param requests     the run's planned requests (turns), &gt;= 0
     * @param turns        {@code --turns}; null = one turn per conversation
     * @param seed         the run's seed
     * @param firstPrompts the run's prompt builder (shared prefix, salt): turn 1's prompts; not null
     * @param laterPrompts a prompt builder without shared prefix (the run's salt): the later turns' prompts; not null
     * @param planned      request index to its prompt size, tokens (the planned context, scaled as the run's
     *                     prompts are); not null
     * @param maxTokens    request index to its own {@code max_tokens}, or a negative value for the run's; not null
     */
    public SyntheticConversations(int requests, LengthDistribution turns, long seed, PromptBuilder firstPrompts,
                                  PromptBuilder laterPrompts, IntUnaryOperator planned, IntUnaryOperator maxTokens) {
        this.firstPrompts = firstPrompts;
        this.laterPrompts = laterPrompts;
        this.planned = planned;
        this.maxTokens = maxTokens;
        int[] counts = draw(requests, turns, seed);
        this.turns = counts;
        this.first = new int[counts.length];
        for (int c = 1; c < counts.length; c++) {
            first[c] = first[c - 1] + counts[c - 1];
        }
    }

    /**
     * @param requests the run's planned requests, &gt;= 0
     * @param turns    {@code --turns}, or null for one turn each
     * @param seed     the run's seed
     * @return each conversation's turns, adding up to {@code requests} (the last one shortened)
     */
    public static int[] draw(int requests, LengthDistribution turns, long seed) {
        int[] out = new int[Math.max(0, requests)];
        Random rng = new Random(seed ^ TURNS_SALT);
        int n = 0;
        int sum = 0;
        while (sum < requests) {
            double v = turns == null ? 1 : turns.stddev() == 0 ? turns.mean()
                    : turns.mean() + turns.stddev() * rng.nextGaussian();
            int t = (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, Math.round(v)));
            t = Math.min(t, requests - sum);
            out[n++] = t;
            sum += t;
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * @param conversations conversations, &gt;= 0
     * @param turns         {@code --turns}, or null for one turn each
     * @param seed          the run's seed
     * @param max           the largest sum to return
     * @return the turns of the first {@code conversations} planned conversations added up (a run of that many
     *         requests plans exactly those conversations), at most {@code max}
     */
    public static int requestsOf(int conversations, LengthDistribution turns, long seed, int max) {
        Random rng = new Random(seed ^ TURNS_SALT);
        long sum = 0;
        for (int c = 0; c < conversations && sum < max; c++) {
            double v = turns == null ? 1 : turns.stddev() == 0 ? turns.mean()
                    : turns.mean() + turns.stddev() * rng.nextGaussian();
            sum += (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, Math.round(v)));
        }
        return (int) Math.min(max, sum);
    }

    @Override
    public int conversations() {
        return turns.length;
    }

    @Override
    public int turns(int conversation) {
        return turns[conversation];
    }

    @Override
    public int firstRequest(int conversation) {
        return first[conversation];
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException with {@link PromptBuilder#TOO_SMALL} when the planned context cannot hold
     *                                  the prompt envelope
     */
    @Override
    public UserTurn userTurn(int conversation, int turn) {
        int index = first[conversation] + turn - 1;
        int size = planned.applyAsInt(index);
        String prompt;
        try {
            prompt = (turn == 1 ? firstPrompts : laterPrompts).prompt(index, size);
        } catch (PromptBuilder.PromptTooSmallException e) {
            throw new IllegalArgumentException(PromptBuilder.TOO_SMALL, e);
        }
        int own = maxTokens.applyAsInt(index);
        return new UserTurn(List.of(InputMessage.user(prompt)), size, own < 0 ? null : own);
    }
}

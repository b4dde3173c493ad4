package io.capstream.loadgen.workload;

import java.util.List;

/**
 * One entry of a {@code --dataset}: the chat messages its first request sends and its lengths, and, in a dataset
 * with multi-turn conversations, all its turns (issue 29).
 *
 * @param messagesJson the {@code messages} array of the entry's first (or only) request as compact JSON, sent
 *                     verbatim by a single-turn run (a {@code prompt} entry and a ShareGPT conversation's first
 *                     human turn become one user message)
 * @param promptTokens the messages' text tokens (by the run's {@link TokenCounter}), the request's planned context
 * @param outputTokens the entry's own output length, tokens: its {@code max_tokens}, or the token count of the
 *                     ShareGPT reply; null when the entry has none
 * @param turns        the entry as a conversation, its turns in order, when the dataset is multi-turn
 *                     ({@link Dataset#multiTurn()}); empty in a single-turn dataset (which sends only
 *                     {@code messagesJson}). Not null
 */
public record DatasetEntry(String messagesJson, int promptTokens, Integer outputTokens, List<Turn> turns) {

    /** Copies the turns. */
    public DatasetEntry {
        turns = List.copyOf(turns);
    }

    /**
     * An entry of a single-turn dataset (or a trace): no conversation.
     *
     * @param messagesJson the {@code messages} array as compact JSON
     * @param promptTokens the messages' tokens
     * @param outputTokens the entry's own output length, tokens, or null
     */
    public DatasetEntry(String messagesJson, int promptTokens, Integer outputTokens) {
        this(messagesJson, promptTokens, outputTokens, List.of());
    }

    /**
     * The planned context of the entry's last turn: every turn's new messages plus the answers before the last
     * turn, each counted as its turn's {@code max_tokens} (its own, else {@code defaultMaxTokens}) — the longest
     * prompt the conversation sends if every answer is as long as the dataset's.
     *
     * @param turnsSent        the turns sent (1..{@code turns().size()})
     * @param defaultMaxTokens the run's {@code max_tokens} for a turn without its own, tokens
     * @return tokens; {@link #promptTokens()} for an entry without turns
     */
    public long contextTokens(int turnsSent, int defaultMaxTokens) {
        if (turns.isEmpty()) {
            return promptTokens;
        }
        long sum = 0;
        for (int t = 0; t < turnsSent; t++) {
            Turn turn = turns.get(t);
            sum += turn.promptTokens();
            if (t < turnsSent - 1) {
                sum += turn.maxTokens() == null ? defaultMaxTokens : turn.maxTokens();
            }
        }
        return sum;
    }

    /**
     * One turn of a dataset conversation: the messages the client adds before the turn's request.
     *
     * @param messages     in order (a first turn may start with system messages, then user messages); not empty
     * @param promptTokens the messages' tokens (by the run's {@link TokenCounter}), the turn's new context
     * @param maxTokens    the turn's own {@code max_tokens} (the tokens of the ShareGPT gpt turn after it, or the
     *                     JSONL turn's {@code max_tokens}), or null for the run's
     */
    public record Turn(List<Message> messages, int promptTokens, Integer maxTokens) {
        /** Copies the messages. */
        public Turn {
            messages = List.copyOf(messages);
        }
    }

    /**
     * One message of a turn.
     *
     * @param role    {@code user} or {@code system}; not null
     * @param content its text (a content array's text parts, concatenated); not null, not blank
     */
    public record Message(String role, String content) {
    }
}

package io.capstream.loadgen.conversation;

/**
 * The planned conversations of a run (issue 29) and what each of their turns sends as new input: synthetic prompts
 * ({@code --turns}) or a multi-turn {@code --dataset}. The answers, and with {@code --tools} the tool results, are
 * the run's (they come from the server); this is only the client's side. Conversation c's turns are requests
 * {@code firstRequest(c) .. firstRequest(c) + turns(c) - 1} (contiguous, in conversation order). Immutable,
 * thread-safe.
 */
public interface ConversationScript {
    /** @return the planned conversations, &gt;= 1 */
    int conversations();

    /**
     * @param conversation 0-based, below {@link #conversations()}
     * @return its planned turns, &gt;= 1 (each turn is one request)
     */
    int turns(int conversation);

    /**
     * @param conversation 0-based
     * @return the request index of its first turn: the sum of the turns of the conversations before it
     */
    int firstRequest(int conversation);

    /**
     * @param conversation 0-based
     * @param turn         1-based, at most {@link #turns(int)}
     * @return the input the client adds before that turn's request (after an answer that was text)
     */
    UserTurn userTurn(int conversation, int turn);
}

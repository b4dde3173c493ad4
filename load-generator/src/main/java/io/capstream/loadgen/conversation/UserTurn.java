package io.capstream.loadgen.conversation;

import java.util.List;

/**
 * The new input of one turn of a conversation (issue 29): what the client adds to the history before the turn's
 * request, when the previous answer was not a tool call.
 *
 * @param messages     the messages to append, in order (usually one user message; a dataset's first turn may start
 *                     with a system message); not empty
 * @param promptTokens the messages' tokens (by the run's token counter), the turn's planned new context
 * @param maxTokens    the turn's own {@code max_tokens} (a dataset's next assistant turn's length), or null for the
 *                     run's
 */
public record UserTurn(List<InputMessage> messages, int promptTokens, Integer maxTokens) {
    /** Copies the list. */
    public UserTurn {
        messages = List.copyOf(messages);
    }
}

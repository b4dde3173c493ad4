package io.capstream.loadgen.conversation;

/**
 * One message of a conversation's input that the client wrote (not the model): a user message, or a system message
 * at the start of a dataset conversation (issue 29). The body builders write it in each API's form.
 *
 * @param role    {@code user} or {@code system}; not null
 * @param content the text; not null
 */
public record InputMessage(String role, String content) {
    /**
     * @param content the text; not null
     * @return a user message
     */
    public static InputMessage user(String content) {
        return new InputMessage("user", content);
    }
}

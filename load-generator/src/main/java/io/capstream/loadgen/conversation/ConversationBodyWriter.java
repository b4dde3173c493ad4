package io.capstream.loadgen.conversation;

import io.capstream.loadgen.workload.RequestBody;
import java.util.List;

/**
 * Writes the request body of one turn of a conversation in its API's form (issue 29): chat {@code messages}, Responses
 * {@code input} items, or Messages {@code messages} with content blocks; with the run's model, thinking controls,
 * {@code --extra-body}, tools and tool choice, {@code stream: true}. Implementations are immutable and thread-safe.
 */
public interface ConversationBodyWriter {
    /**
     * @param history            the conversation so far, oldest first, ending with the turn's new input or tool
     *                           results; not empty. With {@code --responses-state server} only the items after the
     *                           previous answer
     * @param maxTokens          the turn's {@code max_tokens} (Responses: {@code max_output_tokens}), tokens, &gt;= 1
     * @param previousResponseId the previous answer's response id with {@code --responses-state server}, else null
     * @return the UTF-8 JSON body
     */
    byte[] body(List<HistoryItem> history, int maxTokens, String previousResponseId);

    /**
     * As {@link #body}, ready to send with what its images add up to (issue 30: the images of every user message in
     * {@code history}); a writer whose bodies carry images splices them in without copying.
     *
     * @param history            as for {@link #body}
     * @param maxTokens          as for {@link #body}
     * @param previousResponseId as for {@link #body}
     * @return the body and its images
     */
    default RequestBody request(List<HistoryItem> history, int maxTokens, String previousResponseId) {
        return RequestBody.of(body(history, maxTokens, previousResponseId));
    }
}

package io.capstream.loadgen.workload;

/**
 * One request of a {@code --dataset}: the chat messages it sends and its lengths.
 *
 * @param messagesJson the {@code messages} array as compact JSON, sent verbatim (a {@code prompt} entry and a
 *                     ShareGPT conversation become one user message)
 * @param promptTokens the messages' text tokens (by the run's {@link TokenCounter}), the request's planned context
 * @param outputTokens the entry's own output length, tokens: its {@code max_tokens}, or the token count of the
 *                     ShareGPT reply; null when the entry has none
 */
public record DatasetEntry(String messagesJson, int promptTokens, Integer outputTokens) {
}

package io.capstream.loadgen.sim;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Responses API's stored responses: each completed response's whole conversation as prompt text
 * ({@link PromptText}: the history its {@code previous_response_id} named, its input, its output), by response id, so
 * that a request with {@code previous_response_id} is that history plus its new input. Bounded: at most
 * {@code maxEntries} responses and {@code maxChars} characters in all, least recently used evicted first (a later
 * {@code previous_response_id} naming an evicted one is then unknown). Thread-safe: shared by the engine's replicas.
 */
final class ResponseStore {
    private final int maxEntries;
    private final long maxChars;
    private final LinkedHashMap<String, String> byId = new LinkedHashMap<>(256, 0.75f, true);
    private long chars;

    /**
     * @param maxEntries responses kept at most, &gt;= 1
     * @param maxChars   characters kept at most over all responses, &gt;= 1
     */
    ResponseStore(int maxEntries, long maxChars) {
        if (maxEntries < 1 || maxChars < 1) {
            throw new IllegalArgumentException("response store bounds must be >= 1");
        }
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
    }

    /**
     * @param id a response id
     * @return its conversation text, or null when unknown (never stored, or evicted)
     */
    synchronized String get(String id) {
        return byId.get(id);
    }

    /**
     * Stores a response's conversation, evicting the least recently used ones beyond the bounds (a conversation
     * longer than {@code maxChars} alone is not kept).
     *
     * @param id           the response id
     * @param conversation its whole conversation as prompt text
     */
    synchronized void put(String id, String conversation) {
        if (conversation.length() > maxChars) {
            return;
        }
        String old = byId.put(id, conversation);
        chars += conversation.length() - (old == null ? 0 : old.length());
        Iterator<Map.Entry<String, String>> it = byId.entrySet().iterator();
        while ((byId.size() > maxEntries || chars > maxChars) && it.hasNext()) {
            Map.Entry<String, String> eldest = it.next();
            chars -= eldest.getValue().length();
            it.remove();
        }
    }

    /** @return responses kept now */
    synchronized int size() {
        return byId.size();
    }
}

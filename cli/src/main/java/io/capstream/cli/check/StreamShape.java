package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;
import io.capstream.loadgen.client.SseItem;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one {@link ProbeExchange} as a chat or text completion stream: where the first token is, what came before it,
 * the usage chunk, the reasoning field, an error object, the server's timings. Stateless queries over the items.
 */
public final class StreamShape {
    /** Reasoning delta fields, in the order they are looked for. */
    static final List<String> REASONING_FIELDS = List.of("reasoning_content", "reasoning");
    private final ProbeExchange exchange;
    private final List<SseItem> items;

    /** @param exchange the exchange; not null */
    public StreamShape(ProbeExchange exchange) {
        this.exchange = exchange;
        this.items = exchange.items();
    }

    /** @return the exchange read */
    public ProbeExchange exchange() {
        return exchange;
    }

    /** @return the first choice's delta (chat) or the first choice itself (text completions), or a missing node */
    static JsonNode delta(JsonNode chunk) {
        JsonNode c = chunk.path("choices").path(0);
        return c.has("delta") ? c.path("delta") : c;
    }

    /** @return whether the chunk carries output: content or text, reasoning, or a tool call */
    static boolean isToken(JsonNode chunk) {
        JsonNode d = delta(chunk);
        return nonEmpty(d.path("content")) || nonEmpty(d.path("text")) || reasoningField(chunk) != null
                || d.path("tool_calls").isArray() && !d.path("tool_calls").isEmpty();
    }

    /** @return the reasoning field this chunk carries text in, or null */
    static String reasoningField(JsonNode chunk) {
        JsonNode d = delta(chunk);
        for (String f : REASONING_FIELDS) {
            if (nonEmpty(d.path(f))) {
                return f;
            }
        }
        return null;
    }

    private static boolean nonEmpty(JsonNode n) {
        return n.isTextual() && !n.asText().isEmpty();
    }

    /** @return the index in the items of the first token, or -1 */
    public int firstToken() {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).kind() == SseItem.Kind.DATA && isToken(items.get(i).json())) {
                return i;
            }
        }
        return -1;
    }

    /** @return the data chunks with content (or text) deltas */
    public int contentChunks() {
        int n = 0;
        for (JsonNode c : exchange.chunks()) {
            JsonNode d = delta(c);
            if (nonEmpty(d.path("content")) || nonEmpty(d.path("text"))) {
                n++;
            }
        }
        return n;
    }

    /** @return the data chunks with reasoning deltas */
    public int reasoningChunks() {
        int n = 0;
        for (JsonNode c : exchange.chunks()) {
            if (reasoningField(c) != null) {
                n++;
            }
        }
        return n;
    }

    /** @return the reasoning field of the first reasoning delta, or null when none came */
    public String reasoningField() {
        for (JsonNode c : exchange.chunks()) {
            String f = reasoningField(c);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** @return whether the first data chunk carries {@code delta.role} */
    public boolean roleFirst() {
        List<JsonNode> chunks = exchange.chunks();
        return !chunks.isEmpty() && delta(chunks.get(0)).path("role").isTextual();
    }

    /**
     * What came before the first token, one label per item: {@code comment}, {@code role} (a role chunk),
     * {@code empty} (a chunk with a choice but no output), {@code progress} (a chunk with {@code "choices":[]}),
     * {@code field} ({@code event:}/{@code id:}), {@code invalid} (not JSON), {@code other} (JSON of another shape).
     *
     * @return the labels in order (all items when no token came)
     */
    public List<String> beforeFirstToken() {
        int end = firstToken() < 0 ? items.size() : firstToken();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < end; i++) {
            SseItem it = items.get(i);
            out.add(switch (it.kind()) {
                case COMMENT -> "comment";
                case FIELD -> "field";
                case INVALID -> "invalid";
                case DONE -> "done";
                case DATA -> label(it.json());
            });
        }
        return out;
    }

    private static String label(JsonNode chunk) {
        if (chunk.has("error")) {
            return "error";
        }
        JsonNode choices = chunk.path("choices");
        if (choices.isArray() && choices.isEmpty()) {
            return chunk.path("usage").isObject() ? "usage" : "progress";
        }
        if (delta(chunk).path("role").isTextual()) {
            return "role";
        }
        return choices.isArray() ? "empty" : "other";
    }

    /** @return the last chunk's {@code usage} object, or null when no chunk carried one */
    public JsonNode usage() {
        JsonNode u = null;
        for (JsonNode c : exchange.chunks()) {
            if (c.path("usage").isObject()) {
                u = c.path("usage");
            }
        }
        if (u == null && exchange.bodyJson() != null && exchange.bodyJson().path("usage").isObject()) {
            u = exchange.bodyJson().path("usage");
        }
        return u;
    }

    /** @return llama.cpp's {@code timings} object of any chunk (or the body), or null */
    public JsonNode timings() {
        for (JsonNode c : exchange.chunks()) {
            if (c.path("timings").isObject()) {
                return c.path("timings");
            }
        }
        JsonNode b = exchange.bodyJson();
        return b != null && b.path("timings").isObject() ? b.path("timings") : null;
    }

    /** @return the message of the first error object in the stream ({@code {"error": ...}}), or null */
    public String streamError() {
        for (JsonNode c : exchange.chunks()) {
            JsonNode e = c.path("error");
            if (!e.isMissingNode() && !e.isNull()) {
                return e.isObject() ? e.path("message").asText(e.toString()) : e.asText();
            }
        }
        return null;
    }

    /** @return whether any item came after an error object (e.g. {@code [DONE]}) */
    public boolean itemsAfterError() {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).kind() == SseItem.Kind.DATA && items.get(i).json().has("error")) {
                return i + 1 < items.size();
            }
        }
        return false;
    }

    /** @return whether {@code data: [DONE]} came */
    public boolean done() {
        return items.stream().anyMatch(i -> i.kind() == SseItem.Kind.DONE);
    }

    /**
     * @return the completion tokens: {@code usage.completion_tokens}, else the data chunks with output (a lower
     *         bound of the tokens when a chunk carries several), or -1 when neither
     */
    public int completionTokens() {
        JsonNode u = usage();
        if (u != null && u.path("completion_tokens").canConvertToInt()) {
            return u.path("completion_tokens").intValue();
        }
        int n = contentChunks() + reasoningChunks();
        return n == 0 ? -1 : n;
    }

    /**
     * @return the prompt tokens served from the cache: {@code usage.prompt_tokens_details.cached_tokens}, else
     *         llama.cpp's {@code timings.cache_n}; -1 when neither is present
     */
    public int cachedTokens() {
        JsonNode u = usage();
        if (u != null && u.path("prompt_tokens_details").path("cached_tokens").canConvertToInt()) {
            return u.path("prompt_tokens_details").path("cached_tokens").intValue();
        }
        JsonNode t = timings();
        if (t != null && t.path("cache_n").canConvertToInt()) {
            return t.path("cache_n").intValue();
        }
        return -1;
    }

    /** @return whether the body is one JSON completion object (not a stream) */
    public boolean wholeJsonBody() {
        JsonNode b = exchange.bodyJson();
        return b != null && b.isObject() && (b.has("choices") || b.path("object").asText().startsWith("chat.completion"));
    }
}

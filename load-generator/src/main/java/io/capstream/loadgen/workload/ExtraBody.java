package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * {@code --extra-body JSON}: members added to every request body (sampling parameters such as
 * {@code temperature}, {@code top_p}, {@code ignore_eos}, {@code min_tokens}, engine-specific ones), written
 * after capstream's own. A member capstream also sends ({@code temperature}, {@code stream_options},
 * {@code chat_template_kwargs}, {@code reasoning_effort}) is sent once, with the value given here. The members
 * that define what is measured are refused: {@code model}, {@code messages}, {@code prompt}, {@code stream}
 * and {@code max_tokens} (use {@code --model} and {@code --max-tokens}, which the context-window rules use).
 * Immutable, thread-safe.
 */
public final class ExtraBody {
    /** Members capstream sets itself and an extra body may not override. */
    public static final Set<String> RESERVED = Set.of("model", "messages", "prompt", "stream", "max_tokens");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final ObjectNode members;

    private ExtraBody(ObjectNode members) {
        this.members = members;
    }

    /**
     * @param json a JSON object, e.g. {@code {"temperature":0.7,"ignore_eos":true}}; not null
     * @return the extra body
     * @throws IllegalArgumentException (one line) when the text is not one JSON object (trailing data and duplicate
     *                                  members are refused), sets a {@link #RESERVED} member, or turns off
     *                                  {@code stream_options.include_usage}
     */
    public static ExtraBody parse(String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--extra-body is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("--extra-body must be a JSON object such as {\"temperature\":0.7}, got "
                    + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (RESERVED.contains(name)) {
                throw new IllegalArgumentException("--extra-body may not set \"" + name + "\": capstream sets it"
                        + (name.equals("max_tokens") ? " from --max-tokens" : name.equals("model") ? " from --model" : ""));
            }
        }
        JsonNode usage = node.path("stream_options").path("include_usage");
        if (!usage.isMissingNode() && !usage.asBoolean(false)) {
            throw new IllegalArgumentException("--extra-body may not turn off stream_options.include_usage: the output"
                    + " tokens are counted from the usage chunk");
        }
        return new ExtraBody((ObjectNode) node);
    }

    /** @return whether the extra body sets the member (then capstream does not write its own) */
    public boolean has(String name) {
        return members.has(name);
    }

    /**
     * Writes every member into the object being generated, in the given order.
     *
     * @param g a generator positioned inside an object
     * @throws IOException from the generator
     */
    public void writeMembers(JsonGenerator g) throws IOException {
        for (Iterator<Map.Entry<String, JsonNode>> it = members.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> m = it.next();
            g.writeFieldName(m.getKey());
            JSON.writeTree(g, m.getValue());
        }
    }

    /** @return the members as compact JSON text, for the run's record */
    public String json() {
        return members.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExtraBody e && e.members.equals(members);
    }

    @Override
    public int hashCode() {
        return members.hashCode();
    }

    @Override
    public String toString() {
        return json();
    }
}

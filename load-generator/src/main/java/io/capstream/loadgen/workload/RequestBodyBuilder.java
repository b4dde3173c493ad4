package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Serialises the chat request body (spec §2.2), members in the reference's order: {@code model},
 * {@code messages} (one user message), {@code max_tokens}, {@code temperature} 0.0, {@code stream}
 * true, {@code stream_options.include_usage} true, then {@code chat_template_kwargs.enable_thinking}
 * only for thinking-mode enabled/disabled, or top-level {@code reasoning_effort} when set (then the
 * thinking control is never sent). Without options nothing else is sent.
 *
 * <p>Options (issue 15): for {@link ApiEndpoint#COMPLETIONS} the prompt is a {@code prompt} string instead of
 * {@code messages} (the thinking controls are chat-template features and are refused for it by the run's
 * validation); an {@link ExtraBody}'s members follow capstream's, and a member it sets replaces capstream's own
 * (e.g. {@code temperature}). Immutable, thread-safe.
 */
public final class RequestBodyBuilder {
    private static final JsonFactory JSON = new JsonFactory();

    private final String model;
    private final int maxTokens;
    private final ThinkingMode thinking;
    private final String reasoningEffort;
    private final ApiEndpoint endpoint;
    private final ExtraBody extra;

    /**
     * The reference's chat body, without extra members.
     *
     * @param model           model id
     * @param maxTokens       {@code max_tokens}
     * @param thinking        resolved thinking mode
     * @param reasoningEffort reasoning effort, or null
     */
    public RequestBodyBuilder(String model, int maxTokens, ThinkingMode thinking, String reasoningEffort) {
        this(model, maxTokens, thinking, reasoningEffort, ApiEndpoint.CHAT, null);
    }

    /**
     * @param model           model id
     * @param maxTokens       {@code max_tokens}
     * @param thinking        resolved thinking mode
     * @param reasoningEffort reasoning effort, or null
     * @param endpoint        chat ({@code messages}) or completions ({@code prompt}); not null
     * @param extra           {@code --extra-body} members, or null for none
     */
    public RequestBodyBuilder(String model, int maxTokens, ThinkingMode thinking, String reasoningEffort,
                              ApiEndpoint endpoint, ExtraBody extra) {
        this.model = model;
        this.maxTokens = maxTokens;
        this.thinking = thinking;
        this.reasoningEffort = reasoningEffort;
        this.endpoint = java.util.Objects.requireNonNull(endpoint, "endpoint");
        this.extra = extra;
    }

    private boolean own(String member) {
        return extra == null || !extra.has(member);
    }

    /**
     * @param prompt the user message content
     * @return the UTF-8 JSON body, with the builder's {@code max_tokens}
     */
    public byte[] body(String prompt) {
        return body(prompt, maxTokens);
    }

    /**
     * @param prompt    the user message content
     * @param maxTokens the request's {@code max_tokens}, tokens
     * @return the UTF-8 JSON body with one user message
     */
    public byte[] body(String prompt, int maxTokens) {
        return write(prompt, null, maxTokens, prompt.length());
    }

    /**
     * A body whose {@code messages} are a dataset entry's, written verbatim.
     *
     * @param messagesJson a JSON array of chat messages (compact JSON, as {@link DatasetReader} keeps it)
     * @param maxTokens    the request's {@code max_tokens}, tokens
     * @return the UTF-8 JSON body
     */
    public byte[] bodyWithMessages(String messagesJson, int maxTokens) {
        return write(null, messagesJson, maxTokens, messagesJson.length());
    }

    private byte[] write(String prompt, String messagesJson, int maxTokens, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + size / 20 + 256);
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            if (messagesJson != null) {
                g.writeFieldName("messages");
                g.writeRawValue(messagesJson);
            } else if (endpoint == ApiEndpoint.COMPLETIONS) {
                g.writeStringField("prompt", prompt);
            } else {
                g.writeArrayFieldStart("messages");
                g.writeStartObject();
                g.writeStringField("role", "user");
                g.writeStringField("content", prompt);
                g.writeEndObject();
                g.writeEndArray();
            }
            g.writeNumberField("max_tokens", maxTokens);
            if (own("temperature")) {
                g.writeNumberField("temperature", 0.0);
            }
            g.writeBooleanField("stream", true);
            if (own("stream_options")) {
                g.writeObjectFieldStart("stream_options");
                g.writeBooleanField("include_usage", true);
                g.writeEndObject();
            }
            if (reasoningEffort != null) {
                if (own("reasoning_effort")) {
                    g.writeStringField("reasoning_effort", reasoningEffort);
                }
            } else if ((thinking == ThinkingMode.ENABLED || thinking == ThinkingMode.DISABLED)
                    && own("chat_template_kwargs")) {
                g.writeObjectFieldStart("chat_template_kwargs");
                g.writeBooleanField("enable_thinking", thinking == ThinkingMode.ENABLED);
                g.writeEndObject();
            }
            if (extra != null) {
                extra.writeMembers(g);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}

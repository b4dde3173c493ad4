package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.capstream.loadgen.images.EncodedImage;
import io.capstream.loadgen.images.ImagePool;
import io.capstream.loadgen.images.ImageStats;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

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
 * (e.g. {@code temperature}).
 *
 * <p>Issue 29: for {@link ApiEndpoint#RESPONSES} the prompt is the {@code input} string and the limit
 * {@code max_output_tokens}; for {@link ApiEndpoint#MESSAGES} the body has {@code messages} (a dataset's system
 * messages become the top-level {@code system}) and {@code max_tokens}; the members after them are
 * {@link BodyControls}' (no {@code stream_options} for either).
 *
 * <p>Issue 30: with an {@link ImagePool} ({@link #withImages}) the synthetic prompt's user message carries request
 * i's images after its text ({@link ImageParts}; Responses then sends {@code input} as one user message item); the
 * images are spliced into the body, not copied ({@link #request}). Immutable, thread-safe.
 */
public final class RequestBodyBuilder {
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String model;
    private final int maxTokens;
    private final ThinkingMode thinking;
    private final String reasoningEffort;
    private final ApiEndpoint endpoint;
    private final ExtraBody extra;
    private final ImagePool images;
    /** The body of a synthetic prompt with {@link #maxTokens} around the prompt, or null when it cannot be used. */
    private final PromptBody template;

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
     * @param endpoint        chat ({@code messages}), completions ({@code prompt}), responses ({@code input}) or
     *                        messages; not null
     * @param extra           {@code --extra-body} members, or null for none
     */
    public RequestBodyBuilder(String model, int maxTokens, ThinkingMode thinking, String reasoningEffort,
                              ApiEndpoint endpoint, ExtraBody extra) {
        this(model, maxTokens, thinking, reasoningEffort, endpoint, extra, null);
    }

    private RequestBodyBuilder(String model, int maxTokens, ThinkingMode thinking, String reasoningEffort,
                               ApiEndpoint endpoint, ExtraBody extra, ImagePool images) {
        this.images = images;
        this.model = model;
        this.maxTokens = maxTokens;
        this.thinking = thinking;
        this.reasoningEffort = reasoningEffort;
        this.endpoint = java.util.Objects.requireNonNull(endpoint, "endpoint");
        this.extra = extra;
        this.template = PromptBody.of(p -> write(p, null, maxTokens, p.length()));
    }

    /**
     * @param pool the run's synthetic images, or null for none
     * @return a builder whose synthetic prompts carry them ({@link #request})
     */
    public RequestBodyBuilder withImages(ImagePool pool) {
        return new RequestBodyBuilder(model, maxTokens, thinking, reasoningEffort, endpoint, extra, pool);
    }

    /** @return the run's synthetic images, or null */
    public ImagePool images() {
        return images;
    }

    /**
     * {@link #request(String, int, int)} with the builder's {@code max_tokens}.
     *
     * @param prompt the user message's text; not null
     * @param index  the request's index
     * @return the body and its images
     */
    public RequestBody request(String prompt, int index) {
        return request(prompt, maxTokens, index);
    }

    /**
     * Request {@code index}'s body from a synthetic prompt, with its images when the builder has an
     * {@link ImagePool} (not for the completions endpoint, which has no messages).
     *
     * @param prompt    the user message's text; not null
     * @param maxTokens the request's {@code max_tokens}, tokens
     * @param index     the request's index (which images it carries)
     * @return the body and its images
     */
    public RequestBody request(String prompt, int maxTokens, int index) {
        if (images == null || endpoint == ApiEndpoint.COMPLETIONS) {
            Buffer b = maxTokens == this.maxTokens && template != null ? template.write(prompt) : null;
            return b != null ? new RequestBody(b, ImageStats.NONE) : RequestBody.of(body(prompt, maxTokens));
        }
        List<EncodedImage> attached = images.forMessage(index);
        SegmentedBody out = new SegmentedBody(prompt.length() + prompt.length() / 20 + 512);
        ImageStats stats = ImageStats.NONE;
        for (EncodedImage i : attached) {
            stats = stats.plus(i);
        }
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            if (endpoint == ApiEndpoint.RESPONSES) {
                g.writeArrayFieldStart("input");
                g.writeStartObject();
                g.writeStringField("type", "message");
                g.writeStringField("role", "user");
                g.writeFieldName("content");
                ImageParts.content(g, out, endpoint, prompt, attached);
                g.writeEndObject();
                g.writeEndArray();
            } else {
                g.writeArrayFieldStart("messages");
                g.writeStartObject();
                g.writeStringField("role", "user");
                g.writeFieldName("content");
                ImageParts.content(g, out, endpoint, prompt, attached);
                g.writeEndObject();
                g.writeEndArray();
            }
            g.writeNumberField(BodyControls.maxTokensMember(endpoint), maxTokens);
            BodyControls.write(g, endpoint, thinking, reasoningEffort, extra);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RequestBody(out.toBuffer(), stats);
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
            if (endpoint == ApiEndpoint.RESPONSES) {
                if (messagesJson != null) {
                    g.writeFieldName("input"); // chat messages are Responses input messages as they are
                    g.writeRawValue(messagesJson);
                } else {
                    g.writeStringField("input", prompt);
                }
            } else if (endpoint == ApiEndpoint.MESSAGES) {
                if (messagesJson != null) {
                    messagesWithSystem(g, messagesJson);
                } else {
                    userMessage(g, prompt);
                }
            } else if (messagesJson != null) {
                g.writeFieldName("messages");
                g.writeRawValue(messagesJson);
            } else if (endpoint == ApiEndpoint.COMPLETIONS) {
                g.writeStringField("prompt", prompt);
            } else {
                userMessage(g, prompt);
            }
            g.writeNumberField(BodyControls.maxTokensMember(endpoint), maxTokens);
            BodyControls.write(g, endpoint, thinking, reasoningEffort, extra);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void userMessage(JsonGenerator g, String prompt) throws IOException {
        g.writeArrayFieldStart("messages");
        g.writeStartObject();
        g.writeStringField("role", "user");
        g.writeStringField("content", prompt);
        g.writeEndObject();
        g.writeEndArray();
    }

    /** A dataset's chat messages for the Messages API: its system messages become the top-level {@code system}. */
    private static void messagesWithSystem(JsonGenerator g, String messagesJson) throws IOException {
        JsonNode messages = MAPPER.readTree(messagesJson);
        StringBuilder system = new StringBuilder();
        ArrayNode rest = MAPPER.createArrayNode();
        for (JsonNode m : messages) {
            if ("system".equals(m.path("role").asText())) {
                system.append(system.isEmpty() ? "" : "\n").append(m.path("content").asText());
            } else {
                rest.add(m);
            }
        }
        if (!system.isEmpty()) {
            g.writeStringField("system", system.toString());
        }
        g.writeFieldName("messages");
        g.writeRawValue(MAPPER.writeValueAsString(rest));
    }
}

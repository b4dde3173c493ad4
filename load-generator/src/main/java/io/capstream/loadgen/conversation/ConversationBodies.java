package io.capstream.loadgen.conversation;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.capstream.loadgen.client.ToolCall;
import io.capstream.loadgen.images.EncodedImage;
import io.capstream.loadgen.workload.ImageParts;
import io.capstream.loadgen.images.ImageStats;
import io.capstream.loadgen.workload.SegmentedBody;
import io.capstream.loadgen.workload.RequestBody;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.BodyControls;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ThinkingMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@link ConversationBodyWriter}s of the three APIs (issue 29). Every body is {@code model}, the history in the
 * API's form, the turn's token limit, then {@code tools} and {@code tool_choice} when the run sends tools, then the
 * members of {@link BodyControls} (temperature 0, {@code stream: true}, thinking controls, {@code --extra-body}).
 * <ul>
 * <li>chat: {@code messages}; an answer is an {@code assistant} message with its text ({@code null} when it is only
 * tool calls) and {@code tool_calls} ({@code {"id","type":"function","function":{"name","arguments"}}}); a tool
 * result is {@code {"role":"tool","tool_call_id",..,"content"}}; tools as given
 * ({@code {"type":"function","function":{..}}}), {@code tool_choice} {@code auto|required|none};</li>
 * <li>Responses: {@code input} items: input messages {@code {"type":"message","role","content"}}, an answer's
 * text as an output message {@code {"type":"message","role":"assistant","content":[{"type":"output_text","text"}]}}
 * (llama.cpp rejects an item without {@code type}) and its calls as {@code {"type":"function_call","call_id","name","arguments"}}, tool
 * results as {@code {"type":"function_call_output","call_id","output"}}; {@code max_output_tokens};
 * {@code previous_response_id} when given; tools flat ({@code {"type":"function","name","description",
 * "parameters"}}), {@code tool_choice} as for chat;</li>
 * <li>Messages: system messages become the top-level {@code system} (joined with a blank line), the others
 * {@code messages} with content blocks: an answer is an {@code assistant} message with a {@code text} block and
 * {@code tool_use} blocks ({@code input}: the arguments parsed as a JSON object, {@code {}} when they are not one),
 * tool results {@code tool_result} blocks in a {@code user} message; consecutive messages of one role are merged into
 * one (the API wants user and assistant to alternate); a message that is one text block is written as a string;
 * tools {@code {"name","description","input_schema"}}, {@code tool_choice} {@code {"type":"auto"|"any"|"none"}}
 * for {@code auto|required|none}.</li>
 * </ul>
 * A user message with images (issue 30) has its text, then its images, as content parts in the API's form
 * ({@link ImageParts}); the images' base64 is spliced into the body ({@link #request}), not copied.
 * The Messages API history is written by {@link MessagesHistory}. Immutable and thread-safe.
 */
public final class ConversationBodies implements ConversationBodyWriter {
    /** The accepted {@code --tool-choice} values. */
    public static final Set<String> TOOL_CHOICES = Set.of("auto", "required", "none");
    private static final JsonFactory JSON = new JsonFactory();

    private final ApiEndpoint endpoint;
    private final String model;
    private final ThinkingMode thinking;
    private final String reasoningEffort;
    private final ExtraBody extra;
    private final List<ToolDefinition> tools;
    private final String toolChoice;

    private ConversationBodies(ApiEndpoint endpoint, String model, ThinkingMode thinking, String reasoningEffort,
                               ExtraBody extra, List<ToolDefinition> tools, String toolChoice) {
        this.endpoint = endpoint;
        this.model = model;
        this.thinking = thinking;
        this.reasoningEffort = reasoningEffort;
        this.extra = extra;
        this.tools = tools;
        this.toolChoice = toolChoice;
    }

    /**
     * @param endpoint        chat, responses or messages; not null (completions has no conversations)
     * @param model           the model id; not null
     * @param thinking        the resolved thinking mode; not null
     * @param reasoningEffort the reasoning effort, or null
     * @param extra           the {@code --extra-body} members, or null
     * @param tools           the tools sent with every request; empty or null for none
     * @param toolChoice      {@code auto}, {@code required} or {@code none}, or null to send none (the server's
     *                        default); only sent with tools
     * @return the writer
     * @throws IllegalArgumentException for the completions endpoint or an unknown tool choice
     */
    public static ConversationBodyWriter forEndpoint(ApiEndpoint endpoint, String model, ThinkingMode thinking,
                                                     String reasoningEffort, ExtraBody extra,
                                                     List<ToolDefinition> tools, String toolChoice) {
        Objects.requireNonNull(endpoint, "endpoint");
        if (endpoint == ApiEndpoint.COMPLETIONS) {
            throw new IllegalArgumentException("conversations need --endpoint chat, responses or messages"
                    + " (completions has no messages)");
        }
        if (toolChoice != null && !TOOL_CHOICES.contains(toolChoice)) {
            throw new IllegalArgumentException("--tool-choice must be auto, required or none, got '" + toolChoice + "'");
        }
        return new ConversationBodies(endpoint, Objects.requireNonNull(model, "model"),
                Objects.requireNonNull(thinking, "thinking"), reasoningEffort, extra,
                tools == null ? List.of() : List.copyOf(tools), toolChoice);
    }

    @Override
    public byte[] body(List<HistoryItem> history, int maxTokens, String previousResponseId) {
        return write(history, maxTokens, previousResponseId).toByteArray();
    }

    @Override
    public RequestBody request(List<HistoryItem> history, int maxTokens, String previousResponseId) {
        ImageStats stats = ImageStats.NONE;
        for (HistoryItem item : history) {
            if (item instanceof HistoryItem.Input in) {
                for (InputMessage m : in.messages()) {
                    for (EncodedImage i : m.images()) {
                        stats = stats.plus(i);
                    }
                }
            }
        }
        return new RequestBody(write(history, maxTokens, previousResponseId).toBuffer(), stats);
    }

    private SegmentedBody write(List<HistoryItem> history, int maxTokens, String previousResponseId) {
        SegmentedBody out = new SegmentedBody(1024);
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            switch (endpoint) {
                case RESPONSES -> responsesInput(g, out, history);
                case MESSAGES -> MessagesHistory.write(g, out, history);
                default -> chatMessages(g, out, history);
            }
            g.writeNumberField(BodyControls.maxTokensMember(endpoint), maxTokens);
            if (endpoint == ApiEndpoint.RESPONSES && previousResponseId != null) {
                g.writeStringField("previous_response_id", previousResponseId);
            }
            tools(g);
            BodyControls.write(g, endpoint, thinking, reasoningEffort, extra);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    // ---- chat ----

    private void chatMessages(JsonGenerator g, SegmentedBody out, List<HistoryItem> history) throws IOException {
        g.writeArrayFieldStart("messages");
        for (HistoryItem item : history) {
            if (item instanceof HistoryItem.Input in) {
                for (InputMessage m : in.messages()) {
                    g.writeStartObject();
                    g.writeStringField("role", m.role());
                    content(g, out, m);
                    g.writeEndObject();
                }
            } else if (item instanceof HistoryItem.Answer a) {
                g.writeStartObject();
                g.writeStringField("role", "assistant");
                List<ToolCall> calls = a.reply().toolCalls();
                if (a.reply().text().isEmpty() && !calls.isEmpty()) {
                    g.writeNullField("content");
                } else {
                    g.writeStringField("content", a.reply().text());
                }
                if (!calls.isEmpty()) {
                    g.writeArrayFieldStart("tool_calls");
                    for (ToolCall c : calls) {
                        g.writeStartObject();
                        g.writeStringField("id", c.id());
                        g.writeStringField("type", "function");
                        g.writeObjectFieldStart("function");
                        g.writeStringField("name", c.name());
                        g.writeStringField("arguments", c.arguments());
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            } else if (item instanceof HistoryItem.ToolResult r) {
                g.writeStartObject();
                g.writeStringField("role", "tool");
                g.writeStringField("tool_call_id", r.callId());
                g.writeStringField("content", r.content());
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    // ---- Responses ----

    /** A message's {@code content}: its text, or its text and images as the API's content parts. */
    private void content(JsonGenerator g, SegmentedBody out, InputMessage m) throws IOException {
        if (m.images().isEmpty()) {
            g.writeStringField("content", m.content());
        } else {
            g.writeFieldName("content");
            ImageParts.content(g, out, endpoint, m.content(), m.images());
        }
    }

    private void responsesInput(JsonGenerator g, SegmentedBody out, List<HistoryItem> history) throws IOException {
        g.writeArrayFieldStart("input");
        for (HistoryItem item : history) {
            if (item instanceof HistoryItem.Input in) {
                for (InputMessage m : in.messages()) {
                    g.writeStartObject();
                    g.writeStringField("type", "message");
                    g.writeStringField("role", m.role());
                    content(g, out, m);
                    g.writeEndObject();
                }
            } else if (item instanceof HistoryItem.Answer a) {
                if (!a.reply().text().isEmpty() || a.reply().toolCalls().isEmpty()) {
                    // an output message used as input: without "type" llama.cpp answers 400 "Cannot determine
                    // type of 'item'"
                    g.writeStartObject();
                    g.writeStringField("type", "message");
                    g.writeStringField("role", "assistant");
                    g.writeArrayFieldStart("content");
                    g.writeStartObject();
                    g.writeStringField("type", "output_text");
                    g.writeStringField("text", a.reply().text());
                    g.writeEndObject();
                    g.writeEndArray();
                    g.writeEndObject();
                }
                for (ToolCall c : a.reply().toolCalls()) {
                    g.writeStartObject();
                    g.writeStringField("type", "function_call");
                    g.writeStringField("call_id", c.id());
                    g.writeStringField("name", c.name());
                    g.writeStringField("arguments", c.arguments());
                    g.writeEndObject();
                }
            } else if (item instanceof HistoryItem.ToolResult r) {
                g.writeStartObject();
                g.writeStringField("type", "function_call_output");
                g.writeStringField("call_id", r.callId());
                g.writeStringField("output", r.content());
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    // ---- tools ----

    private void tools(JsonGenerator g) throws IOException {
        if (tools.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart("tools");
        for (ToolDefinition t : tools) {
            g.writeStartObject();
            switch (endpoint) {
                case MESSAGES -> {
                    g.writeStringField("name", t.name());
                    if (t.description() != null) {
                        g.writeStringField("description", t.description());
                    }
                    g.writeFieldName("input_schema");
                    g.writeRawValue(t.parametersJson());
                }
                case RESPONSES -> {
                    g.writeStringField("type", "function");
                    function(g, t);
                }
                default -> {
                    g.writeStringField("type", "function");
                    g.writeObjectFieldStart("function");
                    function(g, t);
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        if (toolChoice != null) {
            if (endpoint == ApiEndpoint.MESSAGES) {
                g.writeObjectFieldStart("tool_choice");
                g.writeStringField("type", "required".equals(toolChoice) ? "any" : toolChoice);
                g.writeEndObject();
            } else {
                g.writeStringField("tool_choice", toolChoice);
            }
        }
    }

    private static void function(JsonGenerator g, ToolDefinition t) throws IOException {
        g.writeStringField("name", t.name());
        if (t.description() != null) {
            g.writeStringField("description", t.description());
        }
        g.writeFieldName("parameters");
        g.writeRawValue(t.parametersJson());
    }
}

package io.capstream.loadgen.client;

import java.util.List;

/**
 * What an answer said, kept when the run needs it for the next turn of a conversation (issue 29): the
 * assistant's text, its tool calls, and the Responses API's response id. Runs without conversations keep
 * nothing ({@link #NONE}); the measurements never depend on it.
 *
 * @param text       the concatenated content deltas; never null (empty when none, or when not kept)
 * @param toolCalls  the answer's tool calls in the order they started; never null
 * @param responseId the Responses API's {@code response.id} (for {@code previous_response_id}), or null
 */
public record Reply(String text, List<ToolCall> toolCalls, String responseId) {
    /** Nothing kept. */
    public static final Reply NONE = new Reply("", List.of(), null);

    /** Copies the list; null text or list become empty. */
    public Reply {
        text = text == null ? "" : text;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    /** @return {@code tool_call} when the answer has a tool call, else {@code text} (the events' {@code output_kind}) */
    public String kind() {
        return toolCalls.isEmpty() ? "text" : "tool_call";
    }
}

package io.capstream.loadgen.conversation;

import io.capstream.loadgen.client.Reply;
import java.util.List;

/**
 * One step of a conversation's history in no API's form (issue 29); the body builders write it as chat
 * {@code messages}, Responses {@code input} items or Messages {@code messages} with content blocks.
 */
public sealed interface HistoryItem {
    /**
     * Input the client wrote (user or system messages).
     *
     * @param messages in order; not empty
     */
    record Input(List<InputMessage> messages) implements HistoryItem {
        /** Copies the list. */
        public Input {
            messages = List.copyOf(messages);
        }
    }

    /**
     * An answer of the model: its text and tool calls.
     *
     * @param reply what it said; not null
     */
    record Answer(Reply reply) implements HistoryItem {
    }

    /**
     * The mocked result of one tool call ({@code role: tool} in chat, {@code function_call_output} in Responses, a
     * {@code tool_result} block in Messages).
     *
     * @param callId  the call's id ({@link io.capstream.loadgen.client.ToolCall#id()}); not null
     * @param name    the function's name; not null
     * @param content the result text; not null
     */
    record ToolResult(String callId, String name, String content) implements HistoryItem {
    }
}

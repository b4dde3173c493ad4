package io.capstream.loadgen.client;

/**
 * Collects what one streamed answer said into its {@link Reply} (issue 29): the content text (only when the run
 * keeps the reply: conversation runs send it back as history), the tool calls ({@link ToolCallAssembler}, always,
 * so that an answer that is a tool call is known as one) and the Responses API's response id. When the reply is not
 * kept and the answer has no tool call, nothing is allocated per chunk and the reply is {@link Reply#NONE}. Not
 * thread-safe: one instance per request.
 */
final class ReplyCapture {
    private final StringBuilder text;
    private ToolCallAssembler toolCalls;
    private String responseId;

    /** @param keepReply keep the content text and response id (conversation runs) */
    ReplyCapture(boolean keepReply) {
        this.text = keepReply ? new StringBuilder() : null;
    }

    /**
     * Adds a chunk that was counted (parsed, well formed): its content text, tool-call deltas and response id.
     *
     * @param chunk the chunk (not null)
     */
    void add(DecodedChunk chunk) {
        if (text != null) {
            text.append(chunk.contentText());
            if (chunk.keptResponseId() != null) {
                responseId = chunk.keptResponseId();
            }
        }
        int n = chunk.keptToolCallDeltas();
        if (n > 0 && toolCalls == null) {
            toolCalls = new ToolCallAssembler();
        }
        for (int i = 0; i < n; i++) {
            toolCalls.delta(chunk.keptToolCallIndex(i), chunk.keptToolCallId(i), chunk.keptToolCallName(i),
                    chunk.keptToolCallArguments(i));
        }
    }

    /** @return the tool calls the answer started so far */
    int toolCalls() {
        return toolCalls == null ? 0 : toolCalls.size();
    }

    /**
     * @return the answer: its text when kept, its tool calls, its response id when kept; {@link Reply#NONE} when
     *         the reply is not kept and the answer had no tool call
     */
    Reply reply() {
        if (text == null && toolCalls() == 0) {
            return Reply.NONE;
        }
        return new Reply(text == null ? "" : text.toString(),
                toolCalls == null ? java.util.List.of() : toolCalls.toolCalls(), responseId);
    }
}

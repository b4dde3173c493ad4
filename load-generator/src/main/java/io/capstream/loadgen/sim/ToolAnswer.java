package io.capstream.loadgen.sim;

import io.vertx.core.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated tool-call answer: one call of the request's first tool with a small JSON object as arguments, streamed
 * as {@link #tokens()} output tokens: token 0 starts the call (its id and name), each further token is one fragment of
 * the arguments ({@code {"KEY":"}, words, {@code "}}).
 *
 * @param callId    the call's id ({@code call_...}, {@code toolu_...})
 * @param name      the function's name
 * @param fragments the arguments in streamed fragments, at least one; their concatenation is a JSON object
 */
record ToolAnswer(String callId, String name, List<String> fragments) {
    /** Output tokens of a tool call at most (a small JSON object). */
    static final int MAX_TOKENS = 24;

    /** Copies the list. */
    ToolAnswer {
        fragments = List.copyOf(fragments);
    }

    /**
     * @param callId the call's id
     * @param tool   the tool to call
     * @param tokens output tokens of the call, 2..{@value #MAX_TOKENS}
     * @return the answer
     */
    static ToolAnswer of(String callId, SimTool tool, int tokens) {
        if (tokens < 2 || tokens > MAX_TOKENS) {
            throw new IllegalArgumentException("a tool call takes 2.." + MAX_TOKENS + " tokens, got " + tokens);
        }
        int pieces = tokens - 1;
        List<String> f = new ArrayList<>();
        if (pieces == 1) {
            f.add("{}");
        } else {
            f.add("{" + Json.encode(tool.argKey()) + ":\"");
            for (int i = 0; i < pieces - 2; i++) {
                String w = SseChunks.contentToken(i);
                f.add(i == 0 ? w.strip() : w);
            }
            f.add("\"}");
        }
        return new ToolAnswer(callId, tool.name(), f);
    }

    /** @return the output tokens of the call: its start and one per fragment */
    int tokens() {
        return fragments.size() + 1;
    }

    /** @return the complete arguments, compact JSON */
    String arguments() {
        return String.join("", fragments);
    }

    /** @return the call as prompt text ({@link PromptText#toolCall}) */
    String promptText() {
        return PromptText.toolCall(name, arguments());
    }
}

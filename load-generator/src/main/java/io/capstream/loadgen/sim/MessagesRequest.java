package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Parses a {@code POST /v1/messages} body (Anthropic's Messages API) into a {@link ChatRequest}. */
final class MessagesRequest {
    private MessagesRequest() {
    }

    /**
     * Reads {@code system} (a string or text blocks), then {@code messages} (string content, or blocks: {@code text},
     * {@code tool_use} as {@link PromptText#toolCall}, {@code tool_result} with string or text-block content;
     * {@code thinking} and other blocks are skipped), {@code max_tokens} (required, as Anthropic requires it),
     * {@code thinking.type} ({@code enabled}/{@code disabled}), {@code stream}, {@code tools} and
     * {@code tool_choice}.
     *
     * @param body         the JSON body (may be null)
     * @param defaultModel model id when the body names none
     * @return the request
     * @throws IllegalArgumentException with an Anthropic-style message when the body is not a Messages request
     */
    static ChatRequest parse(JsonObject body, String defaultModel) {
        if (body == null) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        StringBuilder prompt = new StringBuilder();
        PromptText.appendContent(prompt, body.getValue("system"));
        if (!(body.getValue("messages") instanceof JsonArray msgs) || msgs.isEmpty()) {
            throw new IllegalArgumentException("messages: Field required (a non-empty array)");
        }
        for (Object m : msgs) {
            if (!(m instanceof JsonObject mo)) {
                throw new IllegalArgumentException("messages: each message must be an object");
            }
            Object content = mo.getValue("content");
            if (content instanceof String s) {
                prompt.append(s);
            } else if (content instanceof JsonArray blocks) {
                for (Object b : blocks) {
                    if (b instanceof JsonObject bo) {
                        appendBlock(prompt, bo);
                    }
                }
            } else {
                throw new IllegalArgumentException("messages: content must be a string or an array of content blocks");
            }
        }
        if (!body.containsKey("max_tokens")) {
            throw new IllegalArgumentException("max_tokens: Field required");
        }
        ChatRequest c = ChatRequest.common(body, defaultModel, prompt.toString(), SimApi.MESSAGES);
        if (c.maxTokens() == null) {
            throw new IllegalArgumentException("max_tokens: must be an integer, got " + body.getValue("max_tokens"));
        }
        Boolean thinking = c.thinking();
        if (body.getValue("thinking") instanceof JsonObject t && t.getValue("type") instanceof String type) {
            thinking = "enabled".equals(type) || "adaptive".equals(type);
        }
        return new ChatRequest(c.model(), c.prompt(), c.maxTokens(), c.stream(), false, thinking, SimApi.MESSAGES,
                c.tool(), null, false);
    }

    private static void appendBlock(StringBuilder prompt, JsonObject block) {
        switch (String.valueOf(block.getValue("type"))) {
            case "text" -> PromptText.appendContent(prompt, block.getValue("text"));
            case "tool_use" -> prompt.append(PromptText.toolCall(String.valueOf(block.getValue("name")),
                    PromptText.arguments(block.getValue("input"))));
            case "tool_result" -> PromptText.appendContent(prompt, block.getValue("content"));
            case "image" -> PromptText.appendImage(prompt, block);
            default -> {
                // thinking and other blocks carry nothing the prompt counts
            }
        }
    }
}

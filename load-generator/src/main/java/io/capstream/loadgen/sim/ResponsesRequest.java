package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Parses a {@code POST /v1/responses} body (the OpenAI Responses API) into a {@link ChatRequest}. */
final class ResponsesRequest {
    private ResponsesRequest() {
    }

    /**
     * Reads {@code instructions}, then {@code input} (a string, or items: messages with string or part-array content,
     * {@code function_call} and {@code function_call_output} items; {@code reasoning} and other items are skipped),
     * {@code max_output_tokens}, {@code reasoning.effort} ({@code none} = no thinking), {@code previous_response_id},
     * {@code store}, {@code stream}, {@code tools} and {@code tool_choice}. The prompt is the text of this request
     * only: the engine prepends the history {@code previous_response_id} names.
     *
     * @param body         the JSON body (may be null)
     * @param defaultModel model id when the body names none
     * @return the request
     * @throws IllegalArgumentException with an OpenAI-style message when the body is not a Responses request
     */
    static ChatRequest parse(JsonObject body, String defaultModel) {
        if (body == null) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        StringBuilder prompt = new StringBuilder();
        if (body.getValue("instructions") instanceof String ins) {
            prompt.append(ins);
        }
        Object input = body.getValue("input");
        if (input instanceof String s) {
            prompt.append(s);
        } else if (input instanceof JsonArray items && !items.isEmpty()) {
            for (Object item : items) {
                if (!(item instanceof JsonObject io)) {
                    throw new IllegalArgumentException("each item of 'input' must be an object");
                }
                appendItem(prompt, io);
            }
        } else {
            throw new IllegalArgumentException("'input' must be a string or a non-empty array of input items");
        }
        ChatRequest c = ChatRequest.common(body, defaultModel, prompt.toString(), SimApi.RESPONSES);
        Integer maxTokens = c.maxTokens();
        if (body.containsKey("max_output_tokens")) {
            maxTokens = ChatRequest.intOrNull(body.getValue("max_output_tokens"));
            if (maxTokens == null || maxTokens < 1) {
                throw new IllegalArgumentException("max_output_tokens must be an integer of at least 1, got "
                        + body.getValue("max_output_tokens"));
            }
        }
        Boolean thinking = c.thinking();
        if (body.getValue("reasoning") instanceof JsonObject r && r.getValue("effort") instanceof String eff) {
            thinking = !"none".equals(eff);
        }
        Object prev = body.getValue("previous_response_id");
        if (prev != null && !(prev instanceof String)) {
            throw new IllegalArgumentException("'previous_response_id' must be a string");
        }
        boolean store = !Boolean.FALSE.equals(body.getValue("store"));
        return new ChatRequest(c.model(), c.prompt(), maxTokens, c.stream(), false, thinking, SimApi.RESPONSES,
                c.tool(), (String) prev, store);
    }

    private static void appendItem(StringBuilder prompt, JsonObject item) {
        String type = item.getValue("type") instanceof String t ? t : "message";
        switch (type) {
            case "message" -> PromptText.appendContent(prompt, item.getValue("content"));
            case "function_call" -> prompt.append(PromptText.toolCall(String.valueOf(item.getValue("name")),
                    PromptText.arguments(item.getValue("arguments"))));
            case "function_call_output" -> PromptText.appendContent(prompt, item.getValue("output"));
            default -> {
                // reasoning items and others carry nothing the prompt counts
            }
        }
    }
}

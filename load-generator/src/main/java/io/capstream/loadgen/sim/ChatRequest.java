package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The parts of a request body that the simulated engine uses: a {@code POST /v1/chat/completions} body (or a
 * {@code POST /v1/completions} one), parsed here; a {@code POST /v1/responses} one ({@link ResponsesRequest}) or a
 * {@code POST /v1/messages} one ({@link MessagesRequest}).
 *
 * @param model        requested model (echoed back), never null
 * @param prompt       the prompt text ({@link PromptText}): the message contents in order, an assistant's tool calls
 *                     and tool results included; never null. For the Responses API without the history that
 *                     {@code previousResponseId} names
 * @param maxTokens    {@code max_tokens} or {@code max_completion_tokens}; null when absent
 * @param stream       {@code stream}
 * @param includeUsage {@code stream_options.include_usage}
 * @param thinking     explicit {@code chat_template_kwargs.enable_thinking}, or true when a
 *                     {@code reasoning_effort} other than "none" is set; null when no control was sent
 * @param api          the API the request came by
 * @param tool         the request's first tool (what a simulated tool call calls), or null when it sends none
 * @param previousResponseId the Responses API's {@code previous_response_id}, or null
 * @param store        the Responses API's {@code store} (default true): keep the response for a later
 *                     {@code previous_response_id}
 */
record ChatRequest(String model, String prompt, Integer maxTokens, boolean stream, boolean includeUsage,
                   Boolean thinking, SimApi api, SimTool tool, String previousResponseId, boolean store) {

    /** @return a text completion ({@code /v1/completions}): answered with {@code choices[].text} */
    boolean text() {
        return api == SimApi.COMPLETIONS;
    }

    /** @return this request answered as one JSON body ({@code --sim-no-stream}) */
    ChatRequest withoutStream() {
        return new ChatRequest(model, prompt, maxTokens, false, includeUsage, thinking, api, tool, previousResponseId,
                store);
    }

    /** @return this request with another prompt */
    ChatRequest withPrompt(String p) {
        return new ChatRequest(model, p, maxTokens, stream, includeUsage, thinking, api, tool, previousResponseId,
                store);
    }

    /**
     * Parses a {@code /v1/completions} body: {@code prompt} is a string or an array of strings (joined); no chat
     * template, so no thinking.
     *
     * @param body         the JSON body (may be null)
     * @param defaultModel model id when the body names none
     * @return the request
     * @throws IllegalArgumentException with an OpenAI-style message when the body is not a completion request
     */
    static ChatRequest parseCompletion(JsonObject body, String defaultModel) {
        if (body == null) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        Object p = body.getValue("prompt");
        StringBuilder prompt = new StringBuilder();
        if (p instanceof String str) {
            prompt.append(str);
        } else if (p instanceof JsonArray arr && !arr.isEmpty()) {
            for (Object part : arr) {
                if (!(part instanceof String str)) {
                    throw new IllegalArgumentException("'prompt' must be a string or an array of strings");
                }
                prompt.append(str);
            }
        } else {
            throw new IllegalArgumentException("'prompt' must be a string or an array of strings");
        }
        ChatRequest shape = common(body, defaultModel, prompt.toString(), SimApi.COMPLETIONS);
        return new ChatRequest(shape.model, shape.prompt, shape.maxTokens, shape.stream, shape.includeUsage, false,
                SimApi.COMPLETIONS, null, null, true);
    }

    /**
     * Parses a request body.
     *
     * @param body the JSON body (may be null)
     * @param defaultModel model id when the body names none
     * @return the request
     * @throws IllegalArgumentException with an OpenAI-style message when the body is not a chat request
     */
    static ChatRequest parse(JsonObject body, String defaultModel) {
        if (body == null) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        Object msgs = body.getValue("messages");
        if (!(msgs instanceof JsonArray arr) || arr.isEmpty()) {
            throw new IllegalArgumentException("'messages' must be a non-empty array");
        }
        StringBuilder prompt = new StringBuilder();
        for (Object m : arr) {
            if (!(m instanceof JsonObject mo)) {
                throw new IllegalArgumentException("each message must be an object");
            }
            PromptText.appendContent(prompt, mo.getValue("content"));
            if (mo.getValue("tool_calls") instanceof JsonArray calls) {
                for (Object call : calls) {
                    if (call instanceof JsonObject co && co.getValue("function") instanceof JsonObject fn) {
                        prompt.append(PromptText.toolCall(String.valueOf(fn.getValue("name")),
                                PromptText.arguments(fn.getValue("arguments"))));
                    }
                }
            }
        }
        return common(body, defaultModel, prompt.toString(), SimApi.CHAT);
    }

    /**
     * The members every API shares: model, {@code max_tokens} (or {@code max_completion_tokens}), {@code stream},
     * {@code stream_options.include_usage}, the thinking controls ({@code chat_template_kwargs.enable_thinking},
     * {@code reasoning_effort}), the first tool and {@code tool_choice}.
     *
     * @param body         the JSON body, non-null
     * @param defaultModel model id when the body names none
     * @param prompt       the prompt text
     * @param api          the API
     * @return the request
     * @throws IllegalArgumentException when {@code max_tokens} is below 1
     */
    static ChatRequest common(JsonObject body, String defaultModel, String prompt, SimApi api) {
        Integer maxTokens = intOrNull(body.getValue("max_tokens"));
        if (maxTokens == null) {
            maxTokens = intOrNull(body.getValue("max_completion_tokens"));
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1, got " + maxTokens);
        }
        boolean stream = Boolean.TRUE.equals(body.getValue("stream"));
        boolean includeUsage = body.getValue("stream_options") instanceof JsonObject so
                && Boolean.TRUE.equals(so.getValue("include_usage"));
        Boolean thinking = null;
        if (body.getValue("chat_template_kwargs") instanceof JsonObject k
                && k.getValue("enable_thinking") instanceof Boolean b) {
            thinking = b;
        } else if (body.getValue("reasoning_effort") instanceof String eff) {
            thinking = !"none".equals(eff);
        }
        String model = body.getValue("model") instanceof String s && !s.isEmpty() ? s : defaultModel;
        return new ChatRequest(model, prompt, maxTokens, stream, includeUsage, thinking, api,
                SimTool.of(body.getValue("tools"), body.getValue("tool_choice")), null, true);
    }

    /** @return the value as an int when it is an integral number, else null */
    static Integer intOrNull(Object v) {
        return v instanceof Number n && !(v instanceof Double d && d != Math.floor(d)) ? n.intValue() : null;
    }
}

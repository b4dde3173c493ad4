package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The parts of a {@code POST /v1/chat/completions} body (or of a {@code POST /v1/completions} one, {@code text})
 * that the simulated engine uses.
 *
 * @param model        requested model (echoed back), never null
 * @param prompt       concatenated message contents, never null
 * @param maxTokens    {@code max_tokens} or {@code max_completion_tokens}; null when absent
 * @param stream       {@code stream}
 * @param includeUsage {@code stream_options.include_usage}
 * @param thinking     explicit {@code chat_template_kwargs.enable_thinking}, or true when a
 *                     {@code reasoning_effort} other than "none" is set; null when no control was sent
 * @param text         a text completion ({@code /v1/completions}): answered with {@code choices[].text}
 */
record ChatRequest(String model, String prompt, Integer maxTokens, boolean stream, boolean includeUsage,
                   Boolean thinking, boolean text) {

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
        ChatRequest shape = common(body, defaultModel, prompt.toString(), true);
        return new ChatRequest(shape.model, shape.prompt, shape.maxTokens, shape.stream, shape.includeUsage, false, true);
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
            Object c = mo.getValue("content");
            if (c instanceof String s) {
                prompt.append(s);
            } else if (c instanceof JsonArray parts) {
                for (Object p : parts) {
                    if (p instanceof JsonObject po && po.getValue("text") instanceof String t) {
                        prompt.append(t);
                    }
                }
            }
        }
        return common(body, defaultModel, prompt.toString(), false);
    }

    /** @return the request with the members chat and text completions share */
    private static ChatRequest common(JsonObject body, String defaultModel, String prompt, boolean text) {
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
        return new ChatRequest(model, prompt, maxTokens, stream, includeUsage, thinking, text);
    }

    private static Integer intOrNull(Object v) {
        return v instanceof Number n && !(v instanceof Double d && d != Math.floor(d)) ? n.intValue() : null;
    }
}

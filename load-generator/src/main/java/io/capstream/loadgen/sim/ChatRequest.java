package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The parts of a {@code POST /v1/chat/completions} body that the simulated engine uses.
 *
 * @param model        requested model (echoed back), never null
 * @param prompt       concatenated message contents, never null
 * @param maxTokens    {@code max_tokens} or {@code max_completion_tokens}; null when absent
 * @param stream       {@code stream}
 * @param includeUsage {@code stream_options.include_usage}
 * @param thinking     explicit {@code chat_template_kwargs.enable_thinking}, or true when a
 *                     {@code reasoning_effort} other than "none" is set; null when no control was sent
 */
record ChatRequest(String model, String prompt, Integer maxTokens, boolean stream, boolean includeUsage,
                   Boolean thinking) {

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
        return new ChatRequest(model, prompt.toString(), maxTokens, stream, includeUsage, thinking);
    }

    private static Integer intOrNull(Object v) {
        return v instanceof Number n && !(v instanceof Double d && d != Math.floor(d)) ? n.intValue() : null;
    }
}

package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The tool a simulated tool call calls: the first tool of the request.
 *
 * @param name     the function's name; never null
 * @param argKey   the key of the argument object: the first property of the tool's parameters schema, or
 *                 {@code input} when it names none; never null
 * @param required true when the request forces a tool call ({@code tool_choice} {@code required}, a named function,
 *                 Anthropic's {@code any} or {@code tool}): every answer is then a tool call
 */
record SimTool(String name, String argKey, boolean required) {

    /**
     * Reads the first tool of a request.
     *
     * @param tools      the request's {@code tools} value (may be null or anything)
     * @param toolChoice the request's {@code tool_choice} value (may be null)
     * @return the tool, or null when the request has no usable tool or {@code tool_choice} is {@code none}
     */
    static SimTool of(Object tools, Object toolChoice) {
        if (!(tools instanceof JsonArray arr) || arr.isEmpty() || !(arr.getValue(0) instanceof JsonObject first)) {
            return null;
        }
        String choice = toolChoice instanceof String s ? s
                : toolChoice instanceof JsonObject o && o.getValue("type") instanceof String t ? t : "auto";
        if ("none".equals(choice)) {
            return null;
        }
        // chat: {"type":"function","function":{"name","parameters"}}; responses: {"type":"function","name",
        // "parameters"}; messages: {"name","input_schema"}
        JsonObject fn = first.getValue("function") instanceof JsonObject f ? f : first;
        if (!(fn.getValue("name") instanceof String name) || name.isEmpty()) {
            return null;
        }
        Object schema = fn.getValue("parameters") != null ? fn.getValue("parameters") : fn.getValue("input_schema");
        String key = "input";
        if (schema instanceof JsonObject so && so.getValue("properties") instanceof JsonObject props
                && !props.isEmpty()) {
            key = props.fieldNames().iterator().next();
        }
        boolean required = !"auto".equals(choice);
        return new SimTool(name, key, required);
    }
}

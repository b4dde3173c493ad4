package io.capstream.loadgen.client;

/**
 * One tool (function) call of a streamed answer, assembled from its deltas (issue 29): chat completions'
 * {@code delta.tool_calls[]}, the Responses API's {@code function_call} output item and argument deltas, the
 * Messages API's {@code tool_use} block and {@code input_json_delta}s.
 *
 * @param id        the call's id ({@code tool_calls[].id}, {@code call_id}, {@code tool_use.id}); never null, a
 *                  generated {@code call_<n>} when the server sent none
 * @param name      the function's name; never null (empty when the server sent none)
 * @param arguments the arguments as the server streamed them (JSON text, possibly incomplete); never null
 */
public record ToolCall(String id, String name, String arguments) {
}

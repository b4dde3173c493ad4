package io.capstream.loadgen.conversation;

/**
 * One tool of {@code --tools} (issue 29), read from an OpenAI-style definition
 * ({@code {"type":"function","function":{"name":..,"description":..,"parameters":{..}}}}); the body builders write
 * it in each API's form.
 *
 * @param name           the function's name; not null, not empty
 * @param description    its description, or null
 * @param parametersJson its JSON Schema as compact JSON text; not null ({@code {"type":"object","properties":{}}}
 *                       when the file gives none)
 */
public record ToolDefinition(String name, String description, String parametersJson) {
}

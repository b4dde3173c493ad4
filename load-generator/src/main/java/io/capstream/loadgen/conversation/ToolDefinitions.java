package io.capstream.loadgen.conversation;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads {@code --tools FILE} (issue 29): an OpenAI-style JSON array of tools, each
 * {@code {"type":"function","function":{"name":..,"description":..,"parameters":{..}}}} (the flat Responses form
 * {@code {"type":"function","name":..,"parameters":..}} is accepted too). Stateless.
 */
public final class ToolDefinitions {
    /** The parameters of a tool whose definition gives none: an object without properties. */
    public static final String NO_PARAMETERS = "{\"type\":\"object\",\"properties\":{}}";
    /** A function name the OpenAI and Anthropic APIs accept. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ToolDefinitions() {
    }

    /**
     * @param file the tools file; not null
     * @return the tools in file order, at least one
     * @throws IllegalArgumentException with a one-line message naming the file and what is wrong: it cannot be read,
     *                                  is not JSON, is not a non-empty array, or an element is not a function tool
     *                                  with a unique name of 1 to 64 letters, digits, '_' or '-' and an object as
     *                                  parameters
     */
    public static List<ToolDefinition> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--tools " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("--tools " + file + ": permission denied");
        } catch (IOException e) {
            throw new IllegalArgumentException("--tools " + file + ": cannot read the file"
                    + (Files.isDirectory(file) ? " (it is a directory)"
                    : e.getMessage() != null ? " (" + e.getMessage() + ")" : ""));
        }
        return parse(text, "--tools " + file);
    }

    /**
     * @param json  the file's text; not null
     * @param label how messages name the source, e.g. {@code --tools tools.json}
     * @return the tools, as {@link #read(Path)}
     * @throws IllegalArgumentException as {@link #read(Path)}
     */
    static List<ToolDefinition> parse(String json, String label) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            String what = e.getOriginalMessage().lines().findFirst().orElse("");
            int detail = what.indexOf(" (");
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(label + " is not valid JSON"
                    + (at != null ? " at line " + at.getLineNr() + ", column " + at.getColumnNr() : "") + ": "
                    + (detail > 0 ? what.substring(0, detail) : what));
        }
        if (root == null || root.isMissingNode()) {
            throw new IllegalArgumentException(label + " is empty: expected a JSON array of tools");
        }
        if (!root.isArray()) {
            throw new IllegalArgumentException(label + " must be a JSON array of tools"
                    + " ([{\"type\":\"function\",\"function\":{\"name\":..}}]), got " + kind(root));
        }
        if (root.isEmpty()) {
            throw new IllegalArgumentException(label + " is an empty array: it defines no tools");
        }
        List<ToolDefinition> tools = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < root.size(); i++) {
            ToolDefinition t = tool(root.get(i), label + ": tool " + (i + 1));
            if (!names.add(t.name())) {
                throw new IllegalArgumentException(label + ": tool " + (i + 1) + " repeats the name '" + t.name() + "'");
            }
            tools.add(t);
        }
        return List.copyOf(tools);
    }

    private static ToolDefinition tool(JsonNode node, String where) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + " is " + kind(node) + ", not an object");
        }
        JsonNode type = node.get("type");
        if (type != null && !"function".equals(type.asText(null))) {
            throw new IllegalArgumentException(where + " has type " + type + ": only \"function\" tools are supported");
        }
        JsonNode f = node.has("function") ? node.get("function") : node;
        if (!f.isObject()) {
            throw new IllegalArgumentException(where + ": \"function\" is " + kind(f) + ", not an object");
        }
        JsonNode name = f.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            throw new IllegalArgumentException(where + " has no function.name (a non-empty string)");
        }
        if (!NAME.matcher(name.asText()).matches()) {
            throw new IllegalArgumentException(where + " is named '" + name.asText() + "': a function name is 1 to 64"
                    + " letters, digits, '_' or '-' (the rule of the OpenAI and Anthropic APIs)");
        }
        JsonNode description = f.get("description");
        if (description != null && !description.isNull() && !description.isTextual()) {
            throw new IllegalArgumentException(where + " ('" + name.asText() + "'): description must be a string");
        }
        JsonNode parameters = f.get("parameters");
        String params;
        if (parameters == null || parameters.isNull()) {
            params = NO_PARAMETERS;
        } else if (parameters.isObject()) {
            params = parameters.toString();
        } else {
            throw new IllegalArgumentException(where + " ('" + name.asText() + "'): parameters must be a JSON Schema"
                    + " object, got " + kind(parameters));
        }
        return new ToolDefinition(name.asText(), description == null || description.isNull() ? null
                : description.asText(), params);
    }

    private static String kind(JsonNode n) {
        return n.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}

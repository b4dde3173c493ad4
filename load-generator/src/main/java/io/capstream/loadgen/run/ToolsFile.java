package io.capstream.loadgen.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The usage check of {@code --tools FILE} (issue 29): a readable JSON array of at least one OpenAI-style tool
 * ({@code {"type":"function","function":{"name":..}}}, or a bare {@code {"name":..}}). A minimal check, standing in
 * for the parser the body writers read the tools with. Stateless.
 */
final class ToolsFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolsFile() {
    }

    /**
     * @param file the {@code --tools} file; not null
     * @return a one-line usage error naming the file and what is wrong, or null when it holds tools
     */
    static String problem(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            return "--tools " + file + ": not a readable JSON file (" + why + ")";
        }
        if (root == null || !root.isArray() || root.isEmpty()) {
            return "--tools " + file + ": must be a JSON array of tools, e.g. [{\"type\":\"function\",\"function\":"
                    + "{\"name\":\"get_weather\",\"parameters\":{...}}}]";
        }
        for (int i = 0; i < root.size(); i++) {
            JsonNode t = root.get(i);
            JsonNode fn = t.has("function") ? t.get("function") : t;
            if (!fn.isObject() || !fn.path("name").isTextual() || fn.path("name").asText().isBlank()) {
                return "--tools " + file + ": tool " + i + " has no function name (expected {\"type\":\"function\","
                        + "\"function\":{\"name\":..}})";
            }
        }
        return null;
    }
}

package io.capstream.loadgen.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolDefinitionsTest {
    @TempDir
    Path dir;

    private Path file(String json) throws Exception {
        Path f = dir.resolve("tools.json");
        Files.writeString(f, json);
        return f;
    }

    @Test
    void readsOpenAiStyleToolsInOrder() throws Exception {
        List<ToolDefinition> tools = ToolDefinitions.read(file("[{\"type\":\"function\",\"function\":{\"name\":\"a\","
                + "\"description\":\"first\",\"parameters\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}}},"
                + "{\"type\":\"function\",\"function\":{\"name\":\"b\"}},"
                + "{\"type\":\"function\",\"name\":\"c\",\"parameters\":{\"type\":\"object\"}}]"));
        assertThat(tools).as("tools").containsExactly(
                new ToolDefinition("a", "first", "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}"),
                new ToolDefinition("b", null, ToolDefinitions.NO_PARAMETERS),
                new ToolDefinition("c", null, "{\"type\":\"object\"}"));
    }

    @Test
    void badFilesGetOneLineMessagesNamingTheFileAndTheProblem() throws Exception {
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> ToolDefinitions.read(missing)).as("missing file")
                .hasMessage("--tools " + missing + ": no such file");
        assertThatThrownBy(() -> ToolDefinitions.read(dir)).as("a directory")
                .hasMessage("--tools " + dir + ": cannot read the file (it is a directory)");
        String f = "--tools " + dir.resolve("tools.json");
        expect("{\"type\":\"function\"}", f + " must be a JSON array of tools"
                + " ([{\"type\":\"function\",\"function\":{\"name\":..}}]), got object");
        expect("[]", f + " is an empty array: it defines no tools");
        expect("", f + " is empty: expected a JSON array of tools");
        expect("[1]", f + ": tool 1 is number, not an object");
        expect("[{\"type\":\"function\",\"function\":{\"description\":\"x\"}}]", f + ": tool 1 has no function.name"
                + " (a non-empty string)");
        expect("[{\"type\":\"code_interpreter\"}]", f + ": tool 1 has type \"code_interpreter\": only \"function\""
                + " tools are supported");
        expect("[{\"function\":{\"name\":\"a\",\"parameters\":[]}}]", f + ": tool 1 ('a'): parameters must be a JSON"
                + " Schema object, got array");
        expect("[{\"function\":{\"name\":\"a\"}},{\"function\":{\"name\":\"a\"}}]", f + ": tool 2 repeats the name 'a'");
        expect("[{\"function\":{\"name\":\"a b!\"}}]", f + ": tool 1 is named 'a b!': a function name is 1 to 64"
                + " letters, digits, '_' or '-' (the rule of the OpenAI and Anthropic APIs)");
        // before: Jackson's own text, "... (start marker at [Source: REDACTED (`StreamReadFeature...` disabled); ...)"
        expect("[{\"function\":", f + " is not valid JSON at line 1, column 14: Unexpected end-of-input"
                + " within/between Object entries");
    }

    private void expect(String json, String message) throws Exception {
        Path p = file(json);
        assertThatThrownBy(() -> ToolDefinitions.read(p)).as(json).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}

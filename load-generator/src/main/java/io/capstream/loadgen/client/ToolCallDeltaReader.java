package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads a chat chunk's {@code delta.tool_calls[]} for {@link ChunkDecoder} (issue 29): each object element becomes
 * one {@link DecodedChunk#toolCallDelta}. Only runs when a delta has a {@code tool_calls} array, so the plain chat
 * path allocates nothing here. Stateless.
 */
final class ToolCallDeltaReader {
    private ToolCallDeltaReader() {
    }

    /**
     * Reads {@code delta.tool_calls[]} (positioned on its {@code START_ARRAY}, returns on its {@code END_ARRAY}):
     * each object element is one {@link DecodedChunk#toolCallDelta} with its {@code index} (-1 when absent or not
     * a non-negative integer), {@code id}, {@code function.name} and {@code function.arguments} (null when absent
     * or not a string); {@code type} and other members are skipped, as are elements that are not objects.
     *
     * @param p   the parser, on the array's {@code START_ARRAY}
     * @param out receives one tool-call delta per object element
     * @throws IOException when the JSON is invalid or ends inside the array
     */
    static void read(JsonParser p, DecodedChunk out) throws IOException {
        readCalls(p, out);
    }

    /**
     * Reads OpenAI's legacy {@code delta.function_call} ({@code {"name": ..., "arguments": ...}}, the answer to a
     * request with {@code functions}; positioned on its {@code START_OBJECT}, returns on its {@code END_OBJECT}) as
     * one {@link DecodedChunk#toolCallDelta} of the call at index 0 (the legacy API has one call per answer, and no
     * id): an answer that is a function call is a tool call, not an empty answer.
     *
     * @param p   the parser, on the object's {@code START_OBJECT}
     * @param out receives one tool-call delta
     * @throws IOException when the JSON is invalid or ends inside the object
     */
    static void readFunctionCall(JsonParser p, DecodedChunk out) throws IOException {
        String[] nameAndArguments = function(p);
        out.toolCallDelta(0, null, nameAndArguments[0], nameAndArguments[1]);
    }

    private static void readCalls(JsonParser p, DecodedChunk out) throws IOException {
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            if (e != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            int index = -1;
            String id = null;
            String name = null;
            String arguments = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken x = p.nextToken();
                switch (field) {
                    case "index" -> {
                        long i = EventFields.nonNegativeInt(p, x);
                        index = i <= Integer.MAX_VALUE ? (int) i : -1;
                    }
                    case "id" -> id = x == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "function" -> {
                        if (x == JsonToken.START_OBJECT) {
                            String[] f = function(p);
                            name = f[0];
                            arguments = f[1];
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            out.toolCallDelta(index, id, name, arguments);
        }
    }

    /** @return the function object's {@code name} and {@code arguments} strings (null when absent or not strings) */
    private static String[] function(JsonParser p) throws IOException {
        String name = null;
        String arguments = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken y = p.nextToken();
            if ("name".equals(f) && y == JsonToken.VALUE_STRING) {
                name = p.getText();
            } else if ("arguments".equals(f) && y == JsonToken.VALUE_STRING) {
                arguments = p.getText();
            } else {
                p.skipChildren();
            }
        }
        return new String[] {name, arguments};
    }
}

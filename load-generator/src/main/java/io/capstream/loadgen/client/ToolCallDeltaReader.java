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
}

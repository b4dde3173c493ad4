package io.capstream.loadgen.conversation;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.client.ToolCall;
import io.capstream.loadgen.images.EncodedImage;
import io.capstream.loadgen.workload.ImageParts;
import io.capstream.loadgen.workload.SegmentedBody;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The history of a conversation in the Messages API's form, for {@link ConversationBodies}: system messages become the
 * top-level {@code system} (joined with a blank line), the others {@code messages} with content blocks ({@code text},
 * {@code tool_use}, {@code tool_result}, images through {@link ImageParts#block}); consecutive messages of one role are
 * merged into one, and a message that is one text block is written as a string. Stateless.
 */
final class MessagesHistory {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private MessagesHistory() {
    }

    /** One content block of a Messages API message. */
    private sealed interface Block {
        /** A text block. */
        record Text(String text) implements Block {
        }

        /** A tool call of the assistant. */
        record ToolUse(ToolCall call) implements Block {
        }

        /** A tool's result in a user message. */
        record Result(HistoryItem.ToolResult result) implements Block {
        }

        /** A user message's image (issue 30). */
        record Image(EncodedImage image) implements Block {
        }
    }

    /** A Messages API message being assembled: a role and its blocks. */
    private record Message(String role, List<Block> blocks) {
    }

    /**
     * Writes the {@code system} member (when there are system messages) and the {@code messages} array.
     *
     * @param g       the generator, inside the body object
     * @param out     the body being written, into which images are spliced
     * @param history the conversation so far
     * @throws IOException from the generator
     */
    static void write(JsonGenerator g, SegmentedBody out, List<HistoryItem> history) throws IOException {
        StringBuilder system = new StringBuilder();
        List<Message> messages = new ArrayList<>();
        for (HistoryItem item : history) {
            if (item instanceof HistoryItem.Input in) {
                for (InputMessage m : in.messages()) {
                    if ("system".equals(m.role())) {
                        system.append(system.isEmpty() ? "" : "\n\n").append(m.content());
                    } else {
                        add(messages, m.role(), new Block.Text(m.content()));
                        for (EncodedImage i : m.images()) {
                            add(messages, m.role(), new Block.Image(i));
                        }
                    }
                }
            } else if (item instanceof HistoryItem.Answer a) {
                List<Block> blocks = new ArrayList<>();
                if (!a.reply().text().isEmpty() || a.reply().toolCalls().isEmpty()) {
                    blocks.add(new Block.Text(a.reply().text()));
                }
                for (ToolCall c : a.reply().toolCalls()) {
                    blocks.add(new Block.ToolUse(c));
                }
                for (Block b : blocks) {
                    add(messages, "assistant", b);
                }
            } else if (item instanceof HistoryItem.ToolResult r) {
                add(messages, "user", new Block.Result(r));
            }
        }
        if (!system.isEmpty()) {
            g.writeStringField("system", system.toString());
        }
        g.writeArrayFieldStart("messages");
        for (Message m : messages) {
            g.writeStartObject();
            g.writeStringField("role", m.role());
            if (m.blocks().size() == 1 && m.blocks().get(0) instanceof Block.Text t) {
                g.writeStringField("content", t.text());
            } else {
                g.writeArrayFieldStart("content");
                for (Block b : m.blocks()) {
                    if (b instanceof Block.Image i) {
                        ImageParts.block(g, out, i.image());
                    } else {
                        block(g, b);
                    }
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void add(List<Message> messages, String role, Block block) {
        if (!messages.isEmpty() && messages.get(messages.size() - 1).role().equals(role)) {
            messages.get(messages.size() - 1).blocks().add(block);
        } else {
            List<Block> blocks = new ArrayList<>();
            blocks.add(block);
            messages.add(new Message(role, blocks));
        }
    }

    private static void block(JsonGenerator g, Block b) throws IOException {
        g.writeStartObject();
        if (b instanceof Block.Text t) {
            g.writeStringField("type", "text");
            g.writeStringField("text", t.text());
        } else if (b instanceof Block.ToolUse u) {
            g.writeStringField("type", "tool_use");
            g.writeStringField("id", u.call().id());
            g.writeStringField("name", u.call().name());
            g.writeFieldName("input");
            g.writeRawValue(inputObject(u.call().arguments()));
        } else if (b instanceof Block.Result r) {
            g.writeStringField("type", "tool_result");
            g.writeStringField("tool_use_id", r.result().callId());
            g.writeStringField("content", r.result().content());
        }
        g.writeEndObject();
    }

    /** @return the arguments as compact JSON when they are a JSON object, else {@code {}} (Messages wants an object) */
    static String inputObject(String arguments) {
        try {
            JsonNode n = MAPPER.readTree(arguments);
            return n != null && n.isObject() ? n.toString() : "{}";
        } catch (IOException e) {
            return "{}";
        }
    }
}

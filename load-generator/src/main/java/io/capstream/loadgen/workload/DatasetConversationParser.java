package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the conversations of a {@code --dataset} file for {@link DatasetReader} (issue 29): JSONL entries with
 * {@code turns} and ShareGPT {@code conversations} (all their human turns), each into today's single entry and
 * its turns; checks that messages can be a conversation turn's input, and makes a multi-turn dataset's entries.
 * The formats are described on {@link DatasetReader}. Errors are {@link IllegalArgumentException}s with a
 * one-line usage message naming the file ({@code --dataset NAME: WHERE: WHAT}). It keeps no state of its own
 * beyond the file's name and the token counter.
 */
final class DatasetConversationParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final TokenCounter counter;

    /**
     * An entry as read, before the file is known to be single- or multi-turn.
     *
     * @param single today's entry (its first request)
     * @param turns  its turns as a conversation, or null to derive from {@code single.messagesJson()} (and
     *               {@code system}) when the dataset turns out multi-turn
     * @param system a ShareGPT single-turn conversation's system text, or null
     */
    record Pending(DatasetEntry single, List<DatasetEntry.Turn> turns, String system) {
    }

    /**
     * @param name    the dataset file's name, for messages
     * @param counter counts prompt and reply tokens
     */
    DatasetConversationParser(String name, TokenCounter counter) {
        this.name = name;
        this.counter = counter;
    }

    /**
     * A JSONL conversation: {@code turns}, optional {@code system} and {@code max_tokens}.
     *
     * @param node  the entry (an object with {@code turns})
     * @param where where it is in the file, for messages
     * @return the entry: its first turn as today's single entry, and all its turns
     * @throws IllegalArgumentException when {@code turns} is not a non-empty array, {@code system} is not a
     *         non-blank string, a turn has no content or messages other than user (and first-turn system) messages,
     *         or a {@code max_tokens} is bad
     */
    Pending turnsEntry(JsonNode node, String where) {
        JsonNode turns = node.get("turns");
        if (!turns.isArray() || turns.isEmpty()) {
            throw fail(where + ": turns must be a non-empty array of turns ({\"prompt\": ...} or {\"messages\":"
                    + " [...]}, each optionally with max_tokens)");
        }
        Integer defaultMax = maxTokens(node, where);
        JsonNode systemNode = node.get("system");
        String system = null;
        if (systemNode != null && !systemNode.isNull()) {
            if (!systemNode.isTextual() || systemNode.textValue().isBlank()) {
                throw fail(where + ": system must be a non-blank string");
            }
            system = systemNode.textValue();
        }
        List<DatasetEntry.Turn> out = new ArrayList<>(turns.size());
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            String at = where + ": turn " + (i + 1);
            if (!turn.isObject()) {
                throw fail(at + " must be an object with prompt or messages");
            }
            Integer own = maxTokens(turn, at);
            List<DatasetEntry.Message> messages = new ArrayList<>();
            if (i == 0 && system != null) {
                messages.add(new DatasetEntry.Message("system", system));
            }
            JsonNode ms = turn.get("messages");
            JsonNode prompt = turn.get("prompt");
            if (ms != null && !ms.isNull()) {
                if (!ms.isArray() || ms.isEmpty()) {
                    throw fail(at + ": messages must be a non-empty array of user (and, in the first turn,"
                            + " system) messages");
                }
                String why = conversationProblem(ms, i == 0 && system == null);
                if (why != null) {
                    throw fail(at + ": " + why);
                }
                for (JsonNode m : ms) {
                    messages.add(new DatasetEntry.Message(m.path("role").asText(), text(m.get("content"))));
                }
            } else if (prompt != null && prompt.isTextual() && !prompt.textValue().isBlank()) {
                messages.add(new DatasetEntry.Message("user", prompt.textValue()));
            } else {
                throw fail(at + " has no content: it needs prompt (a non-blank string) or messages (an array of"
                        + " user messages)");
            }
            out.add(turn(messages, own != null ? own : defaultMax));
        }
        DatasetEntry.Turn first = out.get(0);
        return new Pending(new DatasetEntry(messagesJson(first.messages()), first.promptTokens(), first.maxTokens()),
                out, null);
    }

    /**
     * A ShareGPT conversation: today's single entry (the first human turn, the gpt turn after it) and all its
     * turns; null when there is no human turn.
     *
     * @param node  the entry (an object with {@code conversations})
     * @param where where it is in the file, for messages
     * @return the entry, or null when it has no human turn
     * @throws IllegalArgumentException when {@code conversations} is not an array or a human turn has no content
     */
    Pending conversation(JsonNode node, String where) {
        JsonNode turns = node.get("conversations");
        if (!turns.isArray()) {
            throw fail(where + ": conversations must be an array of {from, value} turns");
        }
        DatasetEntry single = null;
        for (int i = 0; i < turns.size() && single == null; i++) {
            JsonNode turn = turns.get(i);
            if (human(turn) && turn.path("value").isTextual()) {
                Integer output = null;
                for (int j = i + 1; j < turns.size(); j++) {
                    if (gpt(turns.get(j)) && turns.get(j).path("value").isTextual()) {
                        output = Math.max(1, counter.count(turns.get(j).path("value").textValue()));
                        break;
                    }
                }
                single = userMessage(turn.path("value").textValue(), output);
            }
        }
        List<DatasetEntry.Turn> out = new ArrayList<>();
        List<DatasetEntry.Message> system = new ArrayList<>();
        List<DatasetEntry.Message> open = null; // the human turn waiting for its gpt turn
        int humans = 0;
        for (JsonNode turn : turns) {
            if (human(turn)) {
                humans++;
                JsonNode value = turn.path("value");
                if (!value.isTextual() || value.textValue().isBlank()) {
                    throw fail(where + ": human turn " + humans + " has no content (its value must be a non-blank"
                            + " string)");
                }
                if (open != null) {
                    out.add(turn(open, null));
                }
                open = new ArrayList<>(out.isEmpty() ? system : List.of());
                open.add(new DatasetEntry.Message("user", value.textValue()));
            } else if (gpt(turn) && open != null && turn.path("value").isTextual()) {
                out.add(turn(open, Math.max(1, counter.count(turn.path("value").textValue()))));
                open = null;
            } else if (humans == 0 && turn.path("from").asText("").equals("system")
                    && turn.path("value").isTextual() && !turn.path("value").textValue().isBlank()) {
                system.add(new DatasetEntry.Message("system", turn.path("value").textValue()));
            }
        }
        if (open != null) {
            out.add(turn(open, null));
        }
        if (single == null) {
            return null;
        }
        String firstSystem = system.isEmpty() ? null
                : String.join("\n", system.stream().map(DatasetEntry.Message::content).toList());
        return out.size() > 1 ? new Pending(single, out, null) : new Pending(single, null, firstSystem);
    }

    private static boolean human(JsonNode turn) {
        String from = turn.path("from").asText("");
        return from.equals("human") || from.equals("user");
    }

    private static boolean gpt(JsonNode turn) {
        String from = turn.path("from").asText("");
        return from.equals("gpt") || from.equals("assistant");
    }

    private DatasetEntry.Turn turn(List<DatasetEntry.Message> messages, Integer maxTokens) {
        int tokens = 0;
        for (DatasetEntry.Message m : messages) {
            tokens += counter.count(m.content());
        }
        return new DatasetEntry.Turn(messages, tokens, maxTokens);
    }

    /**
     * An entry of a multi-turn dataset: its turns, a single-turn entry's derived from its messages.
     *
     * @param e an entry as read (its messages only user and system messages)
     * @return the entry with its turns
     */
    DatasetEntry conversationEntry(Pending e) {
        DatasetEntry s = e.single();
        List<DatasetEntry.Turn> turns = e.turns();
        if (turns == null) {
            List<DatasetEntry.Message> messages = new ArrayList<>();
            if (e.system() != null) {
                messages.add(new DatasetEntry.Message("system", e.system()));
            }
            try {
                for (JsonNode m : JSON.readTree(s.messagesJson())) {
                    messages.add(new DatasetEntry.Message(m.path("role").asText(), text(m.get("content"))));
                }
            } catch (JsonProcessingException x) {
                throw new IllegalStateException(x); // written by this reader or Jackson
            }
            turns = List.of(turn(messages, s.outputTokens()));
        }
        return new DatasetEntry(s.messagesJson(), s.promptTokens(), s.outputTokens(), turns);
    }

    /**
     * @param messages a chat messages array
     * @param first    whether they start a conversation (system messages allowed before the user messages)
     * @return why the messages cannot be a conversation turn's input, or null when they can
     */
    static String conversationProblem(JsonNode messages, boolean first) {
        boolean user = false;
        for (JsonNode m : messages) {
            String role = m.path("role").asText("");
            if (role.equals("user")) {
                if (text(m.get("content")).isBlank()) {
                    return "a user message without content (a non-blank string or text parts)";
                }
                user = true;
            } else if (role.equals("system")) {
                if (!first || user) {
                    return "a system message may only start the first turn";
                }
                if (text(m.get("content")).isBlank()) {
                    return "a system message without content";
                }
            } else {
                return "messages may only be user and system messages (the answers are the model's), got role "
                        + (role.isEmpty() ? "none" : role);
            }
        }
        return user ? null : "a turn without content (no user message)";
    }

    /**
     * @param node  an entry or a turn
     * @param where where it is in the file, for the message
     * @return its {@code max_tokens}, or null when absent
     * @throws IllegalArgumentException when {@code max_tokens} is not an integer &gt;= 1
     */
    Integer maxTokens(JsonNode node, String where) {
        JsonNode mt = node.get("max_tokens");
        if (mt == null || mt.isNull()) {
            return null;
        }
        if (!mt.canConvertToInt() || !mt.isIntegralNumber() || mt.intValue() < 1) {
            throw fail(where + ": max_tokens must be an integer >= 1, got " + mt);
        }
        return mt.intValue();
    }

    private static String messagesJson(List<DatasetEntry.Message> messages) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (DatasetEntry.Message m : messages) {
            ObjectNode o = arr.addObject();
            o.put("role", m.role());
            o.put("content", m.content());
        }
        return arr.toString();
    }

    /**
     * @param prompt the user message's text
     * @param output the output length in tokens, or null
     * @return a single-turn entry of one user message
     */
    DatasetEntry userMessage(String prompt, Integer output) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        ObjectNode m = arr.addObject();
        m.put("role", "user");
        m.put("content", prompt);
        return new DatasetEntry(arr.toString(), counter.count(prompt), output);
    }

    /** @return a message content's text: the string, or the concatenated {@code text} of its parts */
    static String text(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.textValue();
        }
        StringBuilder sb = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.path("text").isTextual()) {
                    sb.append(part.path("text").textValue());
                }
            }
        }
        return sb.toString();
    }

    /**
     * @param what what is wrong, and where
     * @return the usage error {@code --dataset NAME: WHAT}
     */
    IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("--dataset " + name + ": " + what);
    }
}

package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.capstream.schemas.text.JsonInputErrors;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code --dataset} file, streaming (Jackson), in one of two formats told apart by the first
 * non-blank character:
 * <ul>
 *   <li><b>JSONL</b>: one JSON object per line with {@code messages} (an OpenAI chat messages array, sent as
 *       given) or {@code prompt} (a string, sent as one user message), and optionally {@code max_tokens} (an
 *       integer &gt;= 1, the request's output length unless {@code --output-tokens} is given). Blank lines are
 *       skipped. A multi-turn conversation is an object with {@code turns}: a non-empty array of turns, each
 *       {@code prompt} (a non-blank string, one user message) or {@code messages} (user messages, and system
 *       messages only at the start of the first turn: the answers are the model's), optionally its own
 *       {@code max_tokens}; optionally {@code system} (a string, a system message starting the first turn) and
 *       {@code max_tokens} (for the turns without their own).</li>
 *   <li><b>ShareGPT</b> ({@code [}…): a JSON array of objects with {@code conversations}: [{"from": "human",
 *       "value": …}, {"from": "gpt", "value": …}, …]. A single-turn run sends the first human turn (one user
 *       message), the token count of the gpt turn after it being the output length (as vLLM's bench); a
 *       conversation with no human turn is skipped. A multi-turn run sends every human turn in order, each as a
 *       turn's new user message, the token count of the gpt turn after it being that turn's {@code max_tokens}
 *       (none when the next turn is human again), and {@code system} turns before the first human turn as
 *       system messages starting the first turn; gpt turns before the first human turn, and other turns, are
 *       not sent. Array elements may also be JSONL-style objects ({@code messages}, {@code prompt} or
 *       {@code turns}).</li>
 * </ul>
 * The dataset is multi-turn ({@link Dataset#multiTurn()}) when any conversation in the file has more than one
 * turn; then every entry is a conversation (a single-turn entry a conversation of one turn), so its
 * {@code messages} may only be user and system messages. A turn without content (a ShareGPT human turn whose
 * value is not a non-blank string, a {@code turns} element without {@code prompt} or {@code messages}, or with
 * blank text) is a usage error wherever it is in the file.
 * <p>
 * Memory is bounded: only the first {@code limit} usable entries are kept (a run needs at most its n requests
 * plus its warm-up), at most {@value #MAX_ENTRIES}, and their messages at most {@value #MAX_KEPT_CHARS}
 * characters in all; the rest of the file is still parsed (so that an error anywhere is found) but not kept.
 */
public final class DatasetReader {
    /** Most entries kept (the largest number of requests of a run). */
    public static final int MAX_ENTRIES = 100_000;
    /** Most characters of messages JSON kept over all entries (about 0.5 GiB of heap at 2 bytes per char). */
    public static final long MAX_KEPT_CHARS = 256L * 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final String name;
    private final int limit;
    private final TokenCounter counter;
    private final List<Pending> entries = new ArrayList<>();
    private long keptChars;
    /** Whether any conversation in the file (kept or not) has more than one turn. */
    private boolean multiTurn;
    /** Where the first entry is that cannot be a conversation, and why; null when every entry can. */
    private String notConversation;

    /**
     * An entry as read, before the file is known to be single- or multi-turn.
     *
     * @param single today's entry (its first request)
     * @param turns  its turns as a conversation, or null to derive from {@code single.messagesJson()} (and
     *               {@code system}) when the dataset turns out multi-turn
     * @param system a ShareGPT single-turn conversation's system text, or null
     */
    private record Pending(DatasetEntry single, List<DatasetEntry.Turn> turns, String system) {
    }

    private DatasetReader(Path file, int limit, TokenCounter counter) {
        this.file = file;
        this.name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        this.limit = Math.max(1, Math.min(limit, MAX_ENTRIES));
        this.counter = counter;
    }

    /**
     * @param file    the dataset file
     * @param limit   most entries to keep (the run's requests plus warm-up requests; capped at {@value #MAX_ENTRIES})
     * @param counter counts prompt and reply tokens
     * @return the dataset
     * @throws IllegalArgumentException with a one-line usage message: the file is missing or unreadable, is not
     *         valid JSON (with the line number), an entry has neither {@code messages} nor {@code prompt} nor
     *         {@code turns} (or a bad {@code max_tokens}), a turn has no content, an entry of a multi-turn dataset
     *         has messages other than user and system messages, the kept entries exceed {@value #MAX_KEPT_CHARS}
     *         characters, or no entry is usable
     */
    public static Dataset read(Path file, int limit, TokenCounter counter) {
        String problem = fileProblem(file);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new DatasetReader(file, limit, counter).read();
    }

    /**
     * @param file the {@code --dataset} path
     * @return {@code --dataset: no such file: FILE} or {@code --dataset: cannot read FILE}, or null when it is a
     *         readable regular file (checked with the other options, before the file is parsed)
     */
    public static String fileProblem(Path file) {
        return fileProblem("--dataset", file);
    }

    /**
     * @param option the option that named the file: {@code --dataset} or {@code --trace}
     * @param file   the file
     * @return {@code OPTION: no such file: FILE}, {@code OPTION: FILE is a directory, not a file} or
     *         {@code OPTION: cannot read FILE}, or null when it is a readable regular file
     */
    public static String fileProblem(String option, Path file) {
        if (Files.isDirectory(file)) {
            return option + ": " + file + " is a directory, not a file";
        }
        if (!Files.isRegularFile(file)) {
            return option + ": no such file: " + file;
        }
        return Files.isReadable(file) ? null : option + ": cannot read " + file;
    }

    private Dataset read() {
        String format;
        try (PushbackInputStream in = new PushbackInputStream(Files.newInputStream(file), 1)) {
            int c = firstNonBlank(in);
            format = c == '[' ? "sharegpt" : "jsonl";
            if (c >= 0) {
                in.unread(c);
            }
            try (JsonParser p = JSON.getFactory().createParser(in)) {
                try {
                    if (c == '[') {
                        readArray(p);
                    } else {
                        readLines(p);
                    }
                } catch (JsonProcessingException e) {
                    // a StreamConstraintsException (a 60 MB string, 100,000-deep nesting) has no location of its own
                    throw fail("line " + JsonInputErrors.line(e, p.currentLocation()) + ": "
                            + JsonInputErrors.describe(e));
                }
            }
        } catch (IOException e) {
            throw fail("cannot read it (" + e.getMessage() + ")");
        }
        if (entries.isEmpty()) {
            throw fail(format.equals("sharegpt") ? "no conversation with a human turn" : "no entries");
        }
        if (multiTurn && notConversation != null) {
            throw fail(notConversation);
        }
        List<DatasetEntry> out = new ArrayList<>(entries.size());
        for (Pending e : entries) {
            out.add(multiTurn ? conversationEntry(e) : e.single());
        }
        return new Dataset(name, sha256(), format, counter.name(), out);
    }

    private static int firstNonBlank(InputStream in) throws IOException {
        int c;
        do {
            c = in.read();
        } while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF);
        return c;
    }

    private void readLines(JsonParser p) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != null) {
            long line = p.currentTokenLocation().getLineNr();
            if (t != JsonToken.START_OBJECT) {
                throw fail("line " + line + ": each line must be a JSON object");
            }
            JsonNode node = JSON.readTree(p);
            String where = "line " + line;
            keep(node.has("turns") ? turnsEntry(node, where) : entry(node, where));
        }
    }

    private void readArray(JsonParser p) throws IOException {
        p.nextToken(); // START_ARRAY
        int index = 0;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw fail("line " + p.currentLocation().getLineNr() + ": not valid JSON (the array does not end)");
            }
            String where = "entry " + index + " (line " + p.currentTokenLocation().getLineNr() + ")";
            if (t != JsonToken.START_OBJECT) {
                throw fail(where + ": each element must be a JSON object");
            }
            JsonNode node = JSON.readTree(p);
            keep(node.has("conversations") ? conversation(node, where)
                    : node.has("turns") ? turnsEntry(node, where) : entry(node, where));
            index++;
        }
        if (p.nextToken() != null) {
            throw fail("line " + p.currentTokenLocation().getLineNr() + ": unexpected content after the JSON array");
        }
    }

    private void keep(Pending e) {
        if (e == null) {
            return;
        }
        if (e.turns() != null && e.turns().size() > 1) {
            multiTurn = true;
        }
        if (entries.size() >= limit) {
            return;
        }
        keptChars += e.single().messagesJson().length();
        if (e.turns() != null && e.turns().size() > 1) {
            for (DatasetEntry.Turn turn : e.turns()) {
                for (DatasetEntry.Message m : turn.messages()) {
                    keptChars += m.content().length();
                }
            }
        }
        if (keptChars > MAX_KEPT_CHARS) {
            throw fail("the first " + (entries.size() + 1) + " entries hold more than " + MAX_KEPT_CHARS
                    + " characters of messages (the limit of what a run keeps in memory)");
        }
        entries.add(e);
    }

    /** A JSONL-style entry: {@code messages} or {@code prompt}, optional {@code max_tokens}. */
    private Pending entry(JsonNode node, String where) {
        Integer maxTokens = maxTokens(node, where);
        JsonNode messages = node.get("messages");
        if (messages != null && !messages.isNull()) {
            if (!messages.isArray() || messages.isEmpty()) {
                throw fail(where + ": messages must be a non-empty array of chat messages");
            }
            int tokens = 0;
            for (JsonNode m : messages) {
                if (!m.isObject()) {
                    throw fail(where + ": each message must be an object with role and content");
                }
                tokens += counter.count(text(m.get("content")));
            }
            if (notConversation == null) {
                String why = conversationProblem(messages, true);
                notConversation = why == null ? null
                        : where + ": " + why + " (in a dataset with multi-turn conversations every entry is one)";
            }
            return new Pending(new DatasetEntry(messages.toString(), tokens, maxTokens), null, null);
        }
        JsonNode prompt = node.get("prompt");
        if (prompt != null && prompt.isTextual()) {
            if (notConversation == null && prompt.textValue().isBlank()) {
                notConversation = where + ": the prompt is blank, a turn without content (in a dataset with"
                        + " multi-turn conversations every entry is one)";
            }
            return new Pending(userMessage(prompt.textValue(), maxTokens), null, null);
        }
        throw fail(where + ": an entry needs messages (an array of chat messages), prompt (a string) or turns (an"
                + " array of turns)");
    }

    private Integer maxTokens(JsonNode node, String where) {
        JsonNode mt = node.get("max_tokens");
        if (mt == null || mt.isNull()) {
            return null;
        }
        if (!mt.canConvertToInt() || !mt.isIntegralNumber() || mt.intValue() < 1) {
            throw fail(where + ": max_tokens must be an integer >= 1, got " + mt);
        }
        return mt.intValue();
    }

    /**
     * @param messages a chat messages array
     * @param first    whether they start a conversation (system messages allowed before the user messages)
     * @return why the messages cannot be a conversation turn's input, or null when they can
     */
    private static String conversationProblem(JsonNode messages, boolean first) {
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

    /** A JSONL conversation: {@code turns}, optional {@code system} and {@code max_tokens}. */
    private Pending turnsEntry(JsonNode node, String where) {
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
     */
    private Pending conversation(JsonNode node, String where) {
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

    /** An entry of a multi-turn dataset: its turns, a single-turn entry's derived from its messages. */
    private DatasetEntry conversationEntry(Pending e) {
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

    private static String messagesJson(List<DatasetEntry.Message> messages) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (DatasetEntry.Message m : messages) {
            ObjectNode o = arr.addObject();
            o.put("role", m.role());
            o.put("content", m.content());
        }
        return arr.toString();
    }

    private DatasetEntry userMessage(String prompt, Integer output) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        ObjectNode m = arr.addObject();
        m.put("role", "user");
        m.put("content", prompt);
        return new DatasetEntry(arr.toString(), counter.count(prompt), output);
    }

    /** @return a message content's text: the string, or the concatenated {@code text} of its parts */
    private static String text(JsonNode content) {
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

    private String sha256() {
        try {
            return FileDigest.sha256(file);
        } catch (IOException e) {
            throw fail("cannot read it (" + e.getMessage() + ")");
        }
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("--dataset " + name + ": " + what);
    }
}

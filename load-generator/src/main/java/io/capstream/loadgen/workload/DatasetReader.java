package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.workload.DatasetConversationParser.Pending;
import io.capstream.schemas.text.JsonInputErrors;
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
    private final DatasetConversationParser conversations;
    private final List<Pending> entries = new ArrayList<>();
    private long keptChars;
    /** Whether any conversation in the file (kept or not) has more than one turn. */
    private boolean multiTurn;
    /** Where the first entry is that cannot be a conversation, and why; null when every entry can. */
    private String notConversation;

    private DatasetReader(Path file, int limit, TokenCounter counter) {
        this.file = file;
        this.name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        this.limit = Math.max(1, Math.min(limit, MAX_ENTRIES));
        this.counter = counter;
        this.conversations = new DatasetConversationParser(name, counter);
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
            out.add(multiTurn ? conversations.conversationEntry(e) : e.single());
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
            keep(node.has("turns") ? conversations.turnsEntry(node, where) : entry(node, where));
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
            keep(node.has("conversations") ? conversations.conversation(node, where)
                    : node.has("turns") ? conversations.turnsEntry(node, where) : entry(node, where));
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
        Integer maxTokens = conversations.maxTokens(node, where);
        JsonNode messages = node.get("messages");
        if (messages != null && !messages.isNull()) {
            if (!messages.isArray() || messages.isEmpty()) {
                throw fail(where + ": messages must be a non-empty array of chat messages");
            }
            int tokens = 0;
            int k = 0;
            for (JsonNode m : messages) {
                k++;
                if (!m.isObject()) {
                    throw fail(where + ": each message must be an object with role and content");
                }
                if (!m.path("role").isTextual() || m.path("role").textValue().isBlank()) {
                    throw fail(where + ": message " + k + " has no role (each message must be an object with role"
                            + " and content)");
                }
                JsonNode content = m.get("content");
                if ((content == null || content.isNull()) && !"assistant".equals(m.path("role").textValue())) {
                    // the APIs refuse it (llama-server: HTTP 400 "All non-assistant messages must contain 'content'")
                    throw fail(where + ": message " + k + " (role " + m.path("role").textValue() + ") has no content"
                            + " (only an assistant message, e.g. one with tool_calls, may go without)");
                }
                tokens += counter.count(DatasetConversationParser.text(m.get("content")));
            }
            if (notConversation == null) {
                String why = DatasetConversationParser.conversationProblem(messages, true);
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
            return new Pending(conversations.userMessage(prompt.textValue(), maxTokens), null, null);
        }
        throw fail(where + ": an entry needs messages (an array of chat messages), prompt (a string) or turns (an"
                + " array of turns)");
    }

    private String sha256() {
        try {
            return FileDigest.sha256(file);
        } catch (IOException e) {
            throw fail("cannot read it (" + e.getMessage() + ")");
        }
    }

    private IllegalArgumentException fail(String what) {
        return conversations.fail(what);
    }
}

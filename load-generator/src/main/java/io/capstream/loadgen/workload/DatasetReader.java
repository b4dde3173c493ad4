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
 *       skipped.</li>
 *   <li><b>ShareGPT</b> ({@code [}…): a JSON array of objects with {@code conversations}: [{"from": "human",
 *       "value": …}, {"from": "gpt", "value": …}, …]. The first human turn is the prompt (one user message), and
 *       the token count of the gpt turn after it is the output length (as vLLM's bench); a conversation with no
 *       human turn is skipped. Array elements may also be JSONL-style objects.</li>
 * </ul>
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
    private final List<DatasetEntry> entries = new ArrayList<>();
    private long keptChars;

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
     *         valid JSON (with the line number), an entry has neither {@code messages} nor {@code prompt} (or a bad
     *         {@code max_tokens}), the kept entries exceed {@value #MAX_KEPT_CHARS} characters, or no entry is usable
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
        return new Dataset(name, sha256(), format, counter.name(), entries);
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
            DatasetEntry e = entry(node, "line " + line);
            keep(e);
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
            keep(node.has("conversations") ? conversation(node, where) : entry(node, where));
            index++;
        }
        if (p.nextToken() != null) {
            throw fail("line " + p.currentTokenLocation().getLineNr() + ": unexpected content after the JSON array");
        }
    }

    private void keep(DatasetEntry e) {
        if (e == null || entries.size() >= limit) {
            return;
        }
        keptChars += e.messagesJson().length();
        if (keptChars > MAX_KEPT_CHARS) {
            throw fail("the first " + (entries.size() + 1) + " entries hold more than " + MAX_KEPT_CHARS
                    + " characters of messages (the limit of what a run keeps in memory)");
        }
        entries.add(e);
    }

    /** A JSONL-style entry: {@code messages} or {@code prompt}, optional {@code max_tokens}. */
    private DatasetEntry entry(JsonNode node, String where) {
        Integer maxTokens = null;
        JsonNode mt = node.get("max_tokens");
        if (mt != null && !mt.isNull()) {
            if (!mt.canConvertToInt() || !mt.isIntegralNumber() || mt.intValue() < 1) {
                throw fail(where + ": max_tokens must be an integer >= 1, got " + mt);
            }
            maxTokens = mt.intValue();
        }
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
            return new DatasetEntry(messages.toString(), tokens, maxTokens);
        }
        JsonNode prompt = node.get("prompt");
        if (prompt != null && prompt.isTextual()) {
            return userMessage(prompt.textValue(), maxTokens);
        }
        throw fail(where + ": an entry needs messages (an array of chat messages) or prompt (a string)");
    }

    /** A ShareGPT conversation: the first human turn, the gpt turn after it; null when there is no human turn. */
    private DatasetEntry conversation(JsonNode node, String where) {
        JsonNode turns = node.get("conversations");
        if (!turns.isArray()) {
            throw fail(where + ": conversations must be an array of {from, value} turns");
        }
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            String from = turn.path("from").asText("");
            if ((from.equals("human") || from.equals("user")) && turn.path("value").isTextual()) {
                Integer output = null;
                for (int j = i + 1; j < turns.size(); j++) {
                    String f = turns.get(j).path("from").asText("");
                    if ((f.equals("gpt") || f.equals("assistant")) && turns.get(j).path("value").isTextual()) {
                        output = Math.max(1, counter.count(turns.get(j).path("value").textValue()));
                        break;
                    }
                }
                return userMessage(turn.path("value").textValue(), output);
            }
        }
        return null;
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

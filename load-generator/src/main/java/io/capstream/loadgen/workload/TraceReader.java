package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.capstream.schemas.text.JsonInputErrors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a {@code --trace} file in the Mooncake trace format (the one AIPerf's fixed schedule reads): JSONL, one
 * request per line, {@code {"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47]}}
 * with {@code timestamp} in ms (any origin; the first line's is the run's T0 and the lines must be in time order),
 * {@code input_length} and {@code output_length} in tokens (&gt;= 1), and optional {@code hash_ids}: the ids of the
 * prompt's blocks of {@value #BLOCK_TOKENS} tokens, equal ids meaning equal content (a shared prefix, which an
 * engine's prefix cache can reuse).
 *
 * <p>Each request's prompt is built from its blocks: block {@code h} is the same {@value #BLOCK_TOKENS}-token text
 * wherever it appears ({@link PromptBuilder#CHARS_PER_TOKEN} characters per token, the reference's estimate), the
 * blocks are concatenated in order and the text is cut or, past the last block, filled with text of this line's
 * own to {@code input_length} tokens. The output length is the request's {@code max_tokens}. Memory is bounded:
 * at most {@code limit} lines are kept (the rest of the file is still checked), at most {@link DatasetReader#MAX_ENTRIES}.
 */
public final class TraceReader {
    /** Tokens per hash id block (Mooncake's block size). */
    public static final int BLOCK_TOKENS = 512;
    /** Longest prompt of a trace line, tokens (the largest {@code --ctx-tokens}). */
    public static final int MAX_INPUT_TOKENS = 1_048_576;
    /**
     * Longest trace, ms from the first line's timestamp (7 days): a later line is a usage error, not a run that waits
     * silently for a request due in 30,000 years (a timestamp of 10^15 ms).
     */
    public static final double MAX_SPAN_MS = 7 * 24 * 3600 * 1000.0;
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
        "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"};

    /**
     * A trace as a run sends it: the requests' prompts and lengths (a {@link Dataset} of format {@code mooncake})
     * and their arrival offsets.
     *
     * @param dataset   the requests, in trace order; its name and SHA-256 are the file's
     * @param offsetsNs each request's arrival, ns after the first line's timestamp (non-decreasing)
     */
    public record Trace(Dataset dataset, long[] offsetsNs) {
    }

    private TraceReader() {
    }

    /**
     * @param file  the trace file; not null
     * @param limit most lines kept (&gt;= 1): the run's requests
     * @return the trace
     * @throws IllegalArgumentException (one line, {@code --trace NAME: ...}) when the file is missing or unreadable, a
     *                                  line is not a JSON object with the fields above, the timestamps go back in
     *                                  time, or there is no line
     */
    public static Trace read(Path file, int limit) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        int keep = Math.max(1, Math.min(limit, DatasetReader.MAX_ENTRIES));
        List<DatasetEntry> entries = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream raw = Files.newInputStream(file);
             BufferedReader in = new BufferedReader(new java.io.InputStreamReader(new DigestInputStream(raw, md),
                     StandardCharsets.UTF_8))) {
            String line;
            int lineNo = 0;
            double first = Double.NaN;
            double previous = Double.NEGATIVE_INFINITY;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (JsonProcessingException e) {
                    throw fail(name, "line " + lineNo + ": " + JsonInputErrors.describe(e));
                }
                if (n == null || !n.isObject()) {
                    throw fail(name, "line " + lineNo + ": not a JSON object");
                }
                double ts = number(n, "timestamp", name, lineNo);
                int input = length(n, "input_length", MAX_INPUT_TOKENS, name, lineNo);
                int output = length(n, "output_length", 65_536, name, lineNo);
                int[] hashIds = hashIds(n, name, lineNo);
                if (ts < previous) {
                    throw fail(name, "line " + lineNo + ": timestamp " + fmt(ts) + " is before the previous line's "
                            + fmt(previous) + " (the lines must be in time order)");
                }
                previous = ts;
                if (Double.isNaN(first)) {
                    first = ts;
                }
                if (ts - first > MAX_SPAN_MS) {
                    throw fail(name, "line " + lineNo + ": timestamp " + fmt(ts) + " ms is " + String.format(java.util.Locale.ROOT, "%,.0f", (ts - first) / 3.6e6)
                            + " h after the first line's; a trace may span at most 7 days (168 h): check the unit"
                            + " (timestamps are ms) or cut the trace");
                }
                if (entries.size() < keep) {
                    String prompt = prompt(input, hashIds, lineNo);
                    ArrayNode messages = JsonNodeFactory.instance.arrayNode();
                    messages.addObject().put("role", "user").put("content", prompt);
                    entries.add(new DatasetEntry(messages.toString(), input, output));
                    offsets.add(Math.round((ts - first) * 1e6));
                }
            }
        } catch (NoSuchFileException e) {
            throw fail(name, "no such file: " + file);
        } catch (IOException e) {
            throw fail(name, "cannot read it (" + e.getMessage() + ")");
        }
        if (entries.isEmpty()) {
            throw fail(name, "no requests (an empty file)");
        }
        long[] ns = offsets.stream().mapToLong(Long::longValue).toArray();
        return new Trace(new Dataset(name, HexFormat.of().formatHex(md.digest()), "mooncake", null, entries), ns);
    }

    /**
     * The prompt of a trace line: its blocks' texts in order, cut to {@code inputTokens}, and past the last block
     * text of this line's own (the estimate's {@link PromptBuilder#CHARS_PER_TOKEN} characters per token).
     *
     * @param inputTokens the line's {@code input_length}, tokens
     * @param hashIds     its block ids (may be empty)
     * @param line        its line number, for the text past the blocks
     * @return the prompt, {@code inputTokens × CHARS_PER_TOKEN} characters
     */
    static String prompt(int inputTokens, int[] hashIds, int line) {
        int chars = (int) Math.round(inputTokens * PromptBuilder.CHARS_PER_TOKEN);
        StringBuilder sb = new StringBuilder(chars + 64);
        for (int h : hashIds) {
            if (sb.length() >= chars) {
                break;
            }
            fill(sb, "block " + h + ":", h, (int) Math.round(BLOCK_TOKENS * PromptBuilder.CHARS_PER_TOKEN));
        }
        if (sb.length() < chars) {
            fill(sb, "request " + line + ":", -1 - line, chars - sb.length());
        }
        sb.setLength(chars);
        return sb.toString();
    }

    /** Appends {@code chars} characters of text that depends only on {@code label} and {@code key}. */
    private static void fill(StringBuilder sb, String label, long key, int chars) {
        int end = sb.length() + chars;
        sb.append(label);
        java.util.SplittableRandom r = new java.util.SplittableRandom(key * 0x9E3779B97F4A7C15L);
        while (sb.length() < end) {
            sb.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
        }
        sb.setLength(end);
    }

    private static double number(JsonNode n, String field, String name, int line) {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0) {
            throw fail(name, "line " + line + ": needs \"" + field + "\", a number of ms >= 0");
        }
        return v.doubleValue();
    }

    private static int length(JsonNode n, String field, int max, String name, int line) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToExactIntegral() || v.asLong() < 1 || v.asLong() > max) {
            throw fail(name, "line " + line + ": needs \"" + field + "\", an integer of tokens in 1.." + max);
        }
        return v.asInt();
    }

    private static int[] hashIds(JsonNode n, String name, int line) {
        JsonNode v = n.get("hash_ids");
        if (v == null || v.isNull()) {
            return new int[0];
        }
        if (!v.isArray()) {
            throw fail(name, "line " + line + ": \"hash_ids\" must be an array of integers");
        }
        int[] ids = new int[v.size()];
        for (int i = 0; i < ids.length; i++) {
            if (!v.get(i).canConvertToExactIntegral()) {
                throw fail(name, "line " + line + ": \"hash_ids\" must be an array of integers");
            }
            ids[i] = v.get(i).asInt();
        }
        return ids;
    }

    private static String fmt(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }

    private static IllegalArgumentException fail(String name, String what) {
        return new IllegalArgumentException("--trace " + name + ": " + what);
    }
}

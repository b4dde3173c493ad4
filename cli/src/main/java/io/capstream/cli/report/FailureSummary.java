package io.capstream.cli.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.FailureEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The failures of a run as counts rather than a list (the console summary of {@code run} and {@code report}):
 * one line with the error rate and the number of failures per error type and HTTP status, largest first, e.g.
 * {@code failures          12 of 300 (4.0 %): HTTPError 503 x9, TimeoutError x3}, then one example per kind (the
 * first failure of each, at most {@value #MAX_EXAMPLES}) and where the rest are.
 *
 * <p>The HTTP status comes from the message of an {@code HTTPError}, which starts {@code HTTP Error <code>:} (the
 * reference's wording, spec §6); the error type is the artifact's {@code error_type} as recorded, so that the
 * summary's words can be found in the report file. Stateless.
 */
public final class FailureSummary {
    /** Most kinds named on the counts line; the rest are summed as {@code N more of K other kinds}. */
    static final int MAX_KINDS = 6;
    /** Most example failures printed under the counts line. */
    static final int MAX_EXAMPLES = 3;

    /** Spec §4.3's message of a stream that ended without a non-empty content delta (no tool-call suffix). */
    private static final String NO_VISIBLE_CONTENT = "stream completed without visible content";
    private static final Pattern HTTP_STATUS = Pattern.compile("^HTTP Error (\\d{3})\\b");

    private FailureSummary() {
    }

    /**
     * A kind of failure: its error type and, for HTTP errors, the status.
     *
     * @param errorType the recorded {@code error_type}; not null
     * @param status    the HTTP status parsed from the message, or null when it has none
     */
    record Kind(String errorType, Integer status) {
        @Override
        public String toString() {
            return status == null ? errorType : errorType + " " + status;
        }
    }

    /**
     * @param failures the run's failure entries (all of them); not null, may be empty
     * @return the number of failures per kind, largest first, ties in order of first appearance
     */
    static Map<Kind, Integer> counts(List<FailureEntry> failures) {
        Map<Kind, Integer> byKind = new LinkedHashMap<>();
        for (FailureEntry f : failures) {
            byKind.merge(kind(f), 1, Integer::sum);
        }
        List<Map.Entry<Kind, Integer>> sorted = new ArrayList<>(byKind.entrySet());
        sorted.sort(Map.Entry.<Kind, Integer>comparingByValue(Comparator.reverseOrder()));
        Map<Kind, Integer> out = new LinkedHashMap<>();
        sorted.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** @return the kind of one failure: its error type and the HTTP status its message starts with, if any */
    static Kind kind(FailureEntry f) {
        String type = f.getErrorType() == null || f.getErrorType().isBlank() ? "unknown" : f.getErrorType();
        String message = f.getErrorMessage();
        Integer status = null;
        if (message != null) {
            Matcher m = HTTP_STATUS.matcher(message);
            if (m.find()) {
                status = Integer.valueOf(m.group(1));
            }
        }
        return new Kind(type, status);
    }

    /**
     * The failures section of the summary: nothing when no request failed, else a blank line, the counts line and the
     * examples.
     *
     * @param failures  the failure entries, all of them; not null. Empty with {@code failed > 0} when the report has
     *                  none at hand: the line then has the error rate only
     * @param failed    the number of failed requests (the report's {@code failed}), &gt;= 0
     * @param completed the number of completed requests, &gt;= 0
     * @param inFile    whether entries missing here are in the report file (a chunked report): the line then says so
     * @return the text, lines ending in {@code \n}; empty when {@code failed} is 0 and there are no entries
     */
    public static String render(List<FailureEntry> failures, int failed, int completed, boolean inFile) {
        return render(failures, failed, completed, inFile, null, 0);
    }

    /**
     * The failures section of a report's summary, with its hint ({@link #render(List, int, int, boolean, String,
     * int)}).
     *
     * @param failures the report's failure entries (from its artifact for a chunked report); not null
     * @param report   the report: its {@code failed}, {@code completed}, chunking, thinking mode and
     *                 {@code max_tokens}; not null
     * @return the text, lines ending in {@code \n}; empty when no request failed
     */
    public static String render(List<FailureEntry> failures, BenchmarkReport report) {
        Integer failed = report.getFailed();
        return render(failures, failed == null ? 0 : failed, report.getCompleted(), report.getArtifactChunks() > 0,
                report.getServeFlags() == null ? null : String.valueOf(report.getServeFlags().getThinkingMode()),
                report.getMaxTokens());
    }

    /**
     * The failures section, as {@link #render(List, int, int, boolean)}, then, when a request failed because its
     * stream ended without visible content (spec §4.3's {@code ValueError}) in a run that did not turn thinking off,
     * a {@code hint:} line: a reasoning model can spend the whole completion cap on reasoning, or the stream's data
     * lines were not JSON the client could read (skipped, spec §4.1: a fresh-user pass found such a stream blamed on
     * reasoning alone).
     *
     * @param failures     as above
     * @param failed       as above
     * @param completed    as above
     * @param inFile       as above
     * @param thinkingMode the run's {@code serve_flags.thinking_mode} ({@code default}, {@code enabled},
     *                     {@code disabled}, {@code unsupported}), or null when unknown (no hint)
     * @param maxTokens    the run's completion cap, tokens
     * @return the text, lines ending in {@code \n}
     */
    public static String render(List<FailureEntry> failures, int failed, int completed, boolean inFile,
                                String thinkingMode, int maxTokens) {
        String text = renderCounts(failures, failed, completed, inFile);
        boolean noContent = failures.stream().anyMatch(f -> "ValueError".equals(f.getErrorType())
                && NO_VISIBLE_CONTENT.equals(f.getErrorMessage()));
        if (!noContent || thinkingMode == null || thinkingMode.equals("disabled")) {
            return text;
        }
        return text + "  hint: a reasoning model can spend all of max_tokens (" + maxTokens + ") on reasoning and"
                + " send no content: raise --max-tokens, or pass --no-thinking; or the stream's data lines are not"
                + " JSON chunks of this API ('capstream check' shows where reasoning arrives and what the stream"
                + " holds)\n";
    }

    private static String renderCounts(List<FailureEntry> failures, int failed, int completed, boolean inFile) {
        int count = Math.max(failed, failures.size());
        if (count == 0) {
            return "";
        }
        int sent = count + Math.max(completed, 0);
        StringBuilder sb = new StringBuilder("\n");
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-17s %d of %d (%.1f %%)", "failures",
                count, sent, 100.0 * count / sent));
        if (failures.isEmpty()) {
            return sb.append(line).append(inFile ? ", listed in the report file\n" : "\n").toString();
        }
        Map<Kind, Integer> counts = counts(failures);
        List<String> parts = new ArrayList<>();
        int others = 0;
        int shown = 0;
        for (Map.Entry<Kind, Integer> e : counts.entrySet()) {
            if (shown++ < MAX_KINDS) {
                parts.add(e.getKey() + " x" + e.getValue());
            } else {
                others += e.getValue();
            }
        }
        if (others > 0) {
            parts.add(others + " more of " + (counts.size() - MAX_KINDS) + " other kinds");
        }
        sb.append(line).append(": ").append(String.join(", ", parts)).append('\n');
        int examples = 0;
        for (Kind k : counts.keySet()) {
            if (examples == MAX_EXAMPLES) {
                break;
            }
            examples++;
            FailureEntry f = failures.stream().filter(x -> kind(x).equals(k)).findFirst().orElseThrow();
            sb.append(String.format(Locale.ROOT, "  e.g. #%-5d %-15s %s%n", f.getRequestIndex(), f.getErrorType(),
                    // the cause in capstream's words; the report file keeps the reference's error_message
                    oneLine(io.capstream.schemas.text.FailureWording.of(f.getErrorType(), f.getErrorMessage()))));
        }
        if (failures.size() > examples) {
            sb.append("  all ").append(failures.size()).append(" are listed in the report file (failures)\n");
        }
        return sb.toString();
    }

    /** @return the message on one line, at most 160 characters, or empty for null */
    private static String oneLine(String message) {
        if (message == null) {
            return "";
        }
        String s = message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
        return s.length() > 160 ? s.substring(0, 157) + "..." : s;
    }
}

package io.capstream.cli.report;

import io.capstream.schemas.avro.ConversationEnd;
import io.capstream.schemas.avro.SessionStats;
import io.capstream.schemas.avro.TurnStats;
import java.util.Locale;

/**
 * The conversations of a run in the console summary ({@code capstream.sessions}, issue 29): one line with the
 * conversations, their turns, tool calls and early ends (with the first reason), one with the conversation latency,
 * then a table with one line per turn index: requests, TTFT p50/p95 (ms) and the server's prompt and cached prompt
 * tokens (p50), e.g.
 * <pre>
 * conversations     4 (turns mean 3.0, max 3); tool calls 0; ended early 0
 * conversation      latency p50 512.3 ms, p95 640.0 ms (first request's start to last reply's end)
 * turn       requests   TTFT p50   TTFT p95  prompt p50  cached p50
 * 1                 4       21.5       25.0         310           -
 * </pre>
 * Nothing for a run without conversations. Missing values print as {@code -}. Stateless.
 */
public final class SessionsSummary {
    private SessionsSummary() {
    }

    /**
     * @param s the report's sessions, or null (a single-turn run)
     * @return the lines, each ending in {@code \n}; empty for null
     */
    public static String render(SessionStats s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%d (turns mean %.1f, max %d); tool calls %d;"
                + " ended early %d", s.getConversations(), s.getTurnsMean(), s.getTurnsMax(), s.getToolCalls(),
                s.getEndedEarly()));
        if (!s.getEndReasons().isEmpty()) {
            ConversationEnd first = s.getEndReasons().get(0);
            head.append(" (first: ").append(first.getConversationId()).append(" after turn ")
                    .append(first.getTurn() == null ? "-" : first.getTurn()).append(": ").append(first.getReason())
                    .append(')');
        }
        line(sb, "conversations", head.toString());
        line(sb, "conversation", "latency p50 " + ms(s.getConversationLatencyP50Ms()) + ", p95 "
                + ms(s.getConversationLatencyP95Ms()) + " (first request's start to last reply's end)");
        sb.append(String.format(Locale.ROOT, "%-6s %12s %10s %10s %11s %11s%n", "turn", "requests", "TTFT p50",
                "TTFT p95", "prompt p50", "cached p50"));
        for (TurnStats t : s.getByTurn()) {
            sb.append(String.format(Locale.ROOT, "%-6d %12d %10s %10s %11s %11s%n", t.getTurn(), t.getRequests(),
                    num(t.getTtftP50Ms()), num(t.getTtftP95Ms()), tokens(t.getPromptTokensP50()),
                    tokens(t.getCachedPromptTokensP50())));
        }
        return sb.toString();
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f ms", v);
    }

    private static String num(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String tokens(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, value));
    }
}

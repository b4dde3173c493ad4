package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.ConversationEnd;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.SessionRequests;
import io.capstream.schemas.avro.SessionStats;
import io.capstream.schemas.avro.TurnStats;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's conversations ({@code BenchmarkReport.sessions}, artifact key {@code capstream.sessions}, issue 29)
 * from the request events' conversation fields. Every field of {@link SessionStats} is set here and nowhere else:
 *
 * <ul>
 *   <li>{@code conversations}: distinct {@code conversation_id}; {@code turns_mean}/{@code turns_max}: request events
 *       (completed + failed) per conversation;</li>
 *   <li>{@code tool_calls}: successful requests with {@code output_kind} {@value #TOOL_CALL};</li>
 *   <li>{@code ended_early}: events with a {@code conversation_end}; {@code end_reasons}: the first
 *       {@value #MAX_END_REASONS} of them by request index;</li>
 *   <li>{@code conversation_latency_p50_ms}/{@code _p95_ms}: per conversation, its earliest start to its latest end
 *       (completed: {@code start_ns + e2e_ns}; failed: {@code start_ns + elapsed_ns}, or {@code start_ns} when
 *       unknown), ms;</li>
 *   <li>{@code by_turn}: per turn index, the request events, the TTFT of the turn's rows ({@link RowCalculator}:
 *       successes passing the validity filter), the servers' {@code prompt_tokens} of its successes and their
 *       {@code cached_tokens} where reported;</li>
 *   <li>{@code per_request}: each request's conversation, turn and tool calls, columnar, by request index.</li>
 * </ul>
 * Percentiles are {@link NearestRank}. An event without a {@code conversation_id} belongs to no conversation and is
 * left out (a mixed run would only come from a faulty generator). Pure function; thread-safe.
 */
public final class SessionsCalculator {
    /** {@code RequestCompleted.output_kind} of an answer that was a tool call. */
    public static final String TOOL_CALL = "tool_call";
    /** Most entries of {@code end_reasons}. */
    public static final int MAX_END_REASONS = 5;
    private static final double NS_PER_MS = 1e6;

    private SessionsCalculator() {
    }

    /** One request event's conversation facts. */
    private record Turn(int index, String conversationId, Integer turn, long startNs, long endNs, Double ttftMs,
                        Long promptTokens, Long cachedTokens, boolean toolCall, Integer toolCalls,
                        String end, Integer unsent) {
    }

    /** A conversation's span and size while its events are folded. */
    private static final class Span {
        long firstStartNs = Long.MAX_VALUE;
        long lastEndNs = Long.MIN_VALUE;
        int requests;
    }

    /**
     * @param completed the successful requests, any order; not null
     * @param failed    the failed requests, any order; not null
     * @return the sessions section; null when no request event has a {@code conversation_id} (a single-turn run,
     *     an import), so that such a report is unchanged
     */
    public static SessionStats compute(List<RequestCompleted> completed, List<RequestFailed> failed) {
        List<Turn> turns = new ArrayList<>();
        for (RequestCompleted c : completed) {
            if (c.getConversationId() != null) {
                RequestTiming row = RowCalculator.timing(c);
                turns.add(new Turn(c.getRequestIndex(), c.getConversationId(), c.getTurn(), c.getStartNs(),
                        c.getStartNs() + c.getE2eNs(), row == null ? null : row.getTtftMs(), c.getPromptTokens(),
                        c.getCachedTokens(), TOOL_CALL.equals(c.getOutputKind()), c.getToolCalls(),
                        c.getConversationEnd(), c.getUnsentTurns()));
            }
        }
        for (RequestFailed f : failed) {
            if (f.getConversationId() != null) {
                long end = f.getStartNs() + (f.getElapsedNs() == null ? 0 : f.getElapsedNs());
                turns.add(new Turn(f.getRequestIndex(), f.getConversationId(), f.getTurn(), f.getStartNs(), end, null,
                        null, null, false, null, f.getConversationEnd(), f.getUnsentTurns()));
            }
        }
        if (turns.isEmpty()) {
            return null;
        }
        turns.sort(Comparator.comparingInt(Turn::index));

        Map<String, Span> spans = new LinkedHashMap<>(); // by first request index
        Map<Integer, List<Turn>> byTurn = new TreeMap<>();
        List<ConversationEnd> ends = new ArrayList<>();
        int endedEarly = 0;
        int toolCalls = 0;
        List<Integer> perIndex = new ArrayList<>(turns.size());
        List<Integer> perConversation = new ArrayList<>(turns.size());
        List<Integer> perTurn = new ArrayList<>(turns.size());
        List<Integer> perToolCalls = new ArrayList<>(turns.size());
        Map<String, Integer> position = new LinkedHashMap<>();
        for (Turn t : turns) {
            Span s = spans.computeIfAbsent(t.conversationId(), id -> new Span());
            s.firstStartNs = Math.min(s.firstStartNs, t.startNs());
            s.lastEndNs = Math.max(s.lastEndNs, t.endNs());
            s.requests++;
            if (t.turn() != null) {
                byTurn.computeIfAbsent(t.turn(), k -> new ArrayList<>()).add(t);
            }
            if (t.toolCall()) {
                toolCalls++;
            }
            if (t.end() != null) {
                endedEarly++;
                if (ends.size() < MAX_END_REASONS) {
                    ends.add(ConversationEnd.newBuilder().setConversationId(t.conversationId())
                            .setRequestIndex(t.index()).setTurn(t.turn()).setUnsentTurns(t.unsent())
                            .setReason(t.end()).build());
                }
            }
            perIndex.add(t.index());
            perConversation.add(position.computeIfAbsent(t.conversationId(), id -> position.size()));
            perTurn.add(t.turn());
            perToolCalls.add(t.toolCalls());
        }

        List<Double> latencies = new ArrayList<>(spans.size());
        int turnsMax = 0;
        for (Span s : spans.values()) {
            latencies.add((s.lastEndNs - s.firstStartNs) / NS_PER_MS);
            turnsMax = Math.max(turnsMax, s.requests);
        }
        return SessionStats.newBuilder()
                .setConversations(spans.size())
                .setTurnsMean((double) turns.size() / spans.size())
                .setTurnsMax(turnsMax)
                .setToolCalls(toolCalls)
                .setEndedEarly(endedEarly)
                .setEndReasons(ends)
                .setConversationLatencyP50Ms(NearestRank.percentile(latencies, 50))
                .setConversationLatencyP95Ms(NearestRank.percentile(latencies, 95))
                .setByTurn(byTurn(byTurn))
                .setPerRequest(SessionRequests.newBuilder().setConversationIds(new ArrayList<>(position.keySet()))
                        .setRequestIndex(perIndex).setConversation(perConversation).setTurn(perTurn)
                        .setToolCalls(perToolCalls).build())
                .build();
    }

    /** One {@link TurnStats} per turn index, in increasing order. */
    private static List<TurnStats> byTurn(Map<Integer, List<Turn>> byTurn) {
        List<TurnStats> out = new ArrayList<>(byTurn.size());
        for (Map.Entry<Integer, List<Turn>> e : byTurn.entrySet()) {
            List<Double> ttft = new ArrayList<>();
            List<Long> prompt = new ArrayList<>();
            List<Long> cached = new ArrayList<>();
            for (Turn t : e.getValue()) {
                ttft.add(t.ttftMs());
                prompt.add(t.promptTokens());
                cached.add(t.cachedTokens());
            }
            out.add(TurnStats.newBuilder()
                    .setTurn(e.getKey())
                    .setRequests(e.getValue().size())
                    .setTtftP50Ms(NearestRank.percentile(ttft, 50))
                    .setTtftP95Ms(NearestRank.percentile(ttft, 95))
                    .setPromptTokensP50(NearestRank.percentile(prompt, 50))
                    .setCachedPromptTokensP50(NearestRank.percentile(cached, 50))
                    .build());
        }
        return out;
    }
}

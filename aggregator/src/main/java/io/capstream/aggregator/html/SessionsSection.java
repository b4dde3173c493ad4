package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The run page's conversations section, from {@code capstream.sessions} (issue 29): the conversations, their turns,
 * tool calls, early ends and conversation latency; a by-turn table; and two charts by turn index, TTFT p50/p95 and
 * the server's prompt and cached prompt tokens (p50), which show how a growing history and the prefix cache play out
 * turn by turn. Nothing at all for a report without conversations (single-turn runs keep their page).
 */
final class SessionsSection {
    private final HtmlPage page;
    private final JsonNode sessions;

    /**
     * @param page     the page to add to
     * @param artifact the report's artifact
     */
    SessionsSection(HtmlPage page, JsonNode artifact) {
        this.page = page;
        this.sessions = artifact.path("capstream").path("sessions");
    }

    /** Adds the section when the report has conversations. */
    void add() {
        if (!sessions.isObject()) {
            return;
        }
        page.heading("Conversations");
        List<List<String>> summary = new ArrayList<>();
        summary.add(List.of("conversations", Fmt.value(sessions.get("conversations")), ""));
        summary.add(List.of("turns per conversation", "mean " + Fmt.value(sessions.get("turns_mean")) + ", max "
                + Fmt.value(sessions.get("turns_max")), "turns"));
        summary.add(List.of("tool calls", Fmt.value(sessions.get("tool_calls")), "answers"));
        summary.add(List.of("ended early", Fmt.value(sessions.get("ended_early")), "conversations"));
        summary.add(List.of("conversation latency p50 / p95", Fmt.value(sessions.get("conversation_latency_p50_ms"))
                + " / " + Fmt.value(sessions.get("conversation_latency_p95_ms")), "ms"));
        page.table(FieldRows.HEADER, summary);
        JsonNode ends = sessions.path("end_reasons");
        if (ends.isArray() && !ends.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode e : ends) {
                rows.add(List.of(e.path("conversation_id").asText(), Fmt.value(e.get("request_index")),
                        Fmt.value(e.get("turn")), Fmt.value(e.get("unsent_turns")), e.path("reason").asText()));
            }
            page.subheading(ends.size() < sessions.path("ended_early").asInt(0)
                    ? "First " + ends.size() + " conversations that ended early" : "Conversations that ended early");
            page.table(List.of("conversation", "last request", "turn", "unsent turns", "reason"), rows);
        }

        JsonNode byTurn = sessions.path("by_turn");
        if (!byTurn.isArray() || byTurn.isEmpty()) {
            page.note("No turn in this report has a request.");
            return;
        }
        int n = byTurn.size();
        double[] turn = new double[n]; // positions of a categorical axis labelled with the turn numbers
        List<String> labels = new ArrayList<>(n);
        double[] ttftP50 = new double[n];
        double[] ttftP95 = new double[n];
        double[] prompt = new double[n];
        double[] cached = new double[n];
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JsonNode t = byTurn.get(i);
            turn[i] = i;
            labels.add(t.path("turn").asText());
            ttftP50[i] = number(t.get("ttft_p50_ms"));
            ttftP95[i] = number(t.get("ttft_p95_ms"));
            prompt[i] = number(t.get("prompt_tokens_p50"));
            cached[i] = number(t.get("cached_prompt_tokens_p50"));
            rows.add(List.of(Fmt.value(t.get("turn")), Fmt.value(t.get("requests")), Fmt.value(t.get("ttft_p50_ms")),
                    Fmt.value(t.get("ttft_p95_ms")), Fmt.value(t.get("prompt_tokens_p50")),
                    Fmt.value(t.get("cached_prompt_tokens_p50"))));
        }
        page.subheading("By turn");
        page.table(List.of("turn", "requests", "TTFT p50 (ms)", "TTFT p95 (ms)", "prompt tokens p50",
                "cached prompt tokens p50"), rows);
        page.beginGrid();
        page.chart(new Chart("turn-ttft", "TTFT by turn", "turn", "TTFT (ms)", Chart.Kind.LINE, turn,
                List.of(new Chart.Series("TTFT p50", ttftP50), new Chart.Series("TTFT p95", ttftP95))),
                ChartOptions.NONE.withCategories(labels)
                        .withCaption("Nearest-rank percentiles of each turn's successful requests."));
        List<Chart.Series> tokens = new ArrayList<>();
        tokens.add(new Chart.Series("prompt tokens p50", prompt));
        boolean anyCached = false;
        for (double c : cached) {
            anyCached |= !Double.isNaN(c);
        }
        if (anyCached) {
            tokens.add(new Chart.Series("cached prompt tokens p50", cached));
        }
        page.chart(new Chart("turn-prompt-tokens", "Prompt tokens by turn", "turn", "tokens", Chart.Kind.LINE, turn,
                tokens), ChartOptions.NONE.withCategories(labels).withCaption("The server's usage.prompt_tokens"
                + (anyCached ? " and its cached prompt tokens" : " (the server reported no cached tokens)")
                + ", p50 of each turn."));
        page.endGrid();
    }

    private static double number(JsonNode v) {
        return v != null && v.isNumber() ? v.doubleValue() : Double.NaN;
    }
}

package io.capstream.cli.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.LlamaServer;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29's workloads against a real engine: llama.cpp's llama-server (random-weight 20m model, two slots,
 * {@code --metrics}, prefix cache on). Multi-turn conversations re-send a growing history that its prefix cache
 * serves; the chat, Responses and Messages APIs measure the same workload alike; and each run's client figures are
 * checked against the server's own counters (its {@code /metrics}, scraped by the run: prompt and cached tokens,
 * output tokens, prompt and generation seconds). Skipped when llama-server is not built on this machine.
 */
class WorkloadsLlamaServerIT {
    /** The check options (without the request count). */
    private static final List<String> CHECK = List.of("--model", "random-llama-20m", "--turns", "3", "--concurrency",
            "2", "--ctx-tokens", "256", "--shared-prefix-tokens", "0", "--max-tokens", "16", "--max-model-len", "4096",
            "--thinking-mode", "disabled", "--client-warmup", "0");
    /** llama-server: two slots of 4096 tokens each (the run's --max-model-len), its Prometheus counters on. */
    private static final String[] SERVER = {"--metrics", "-np", "2", "-c", "8192"};
    /**
     * Tokens at the end of a turn's prompt that the next turn's prompt need not share: llama-server re-evaluates at
     * least the prompt's last token, and the template renders the generation prompt and the answer a little
     * differently in the history than when the answer was generated.
     */
    private static final int CACHE_SLACK_TOKENS = 8;

    @TempDir
    Path tmp;

    @Test
    @Timeout(600)
    void threeTurnConversationsGrowThePromptAndReuseThePreviousTurnsFromThePrefixCache() throws Exception {
        assumeLlamaServer();
        try (LlamaServer server = LlamaServer.start(tmp, SERVER)) {
            JsonNode report = run(server, "chat", 12);
            assertThat(report.path("completed").asInt()).as("completed requests (failures: %s)", report.path("failures"))
                    .isEqualTo(12);
            JsonNode sessions = report.path("capstream").path("sessions");
            assertThat(sessions.path("conversations").asInt()).as("capstream.sessions: %s", sessions).isEqualTo(4);
            JsonNode byTurn = sessions.path("by_turn");
            assertThat(byTurn.size()).as("capstream.sessions.by_turn: %s", byTurn).isEqualTo(3);
            for (int k = 0; k < 3; k++) {
                JsonNode t = byTurn.get(k);
                assertThat(t.path("turn").asInt()).as("by_turn[%d]: %s", k, t).isEqualTo(k + 1);
                assertThat(t.path("requests").asInt()).as("by_turn[%d]: %s", k, t).isEqualTo(4);
                if (k > 0) {
                    JsonNode prev = byTurn.get(k - 1);
                    double prompt = t.path("prompt_tokens_p50").asDouble();
                    double prevPrompt = prev.path("prompt_tokens_p50").asDouble();
                    assertThat(prompt).as("turn %d's prompt_tokens_p50 above turn %d's (%s): %s", k + 1, k, prev, t)
                            .isGreaterThan(prevPrompt);
                    assertThat(t.path("cached_prompt_tokens_p50").isNumber())
                            .as("turn %d reports llama-server's cached tokens: %s", k + 1, t).isTrue();
                    double cached = t.path("cached_prompt_tokens_p50").asDouble();
                    assertThat(cached).as("turn %d's cached_prompt_tokens_p50 covers turn %d's prompt (%s): %s", k + 1, k,
                            prev, t).isGreaterThanOrEqualTo(prevPrompt - CACHE_SLACK_TOKENS).isLessThan(prompt);
                }
            }
            ServerTruth truth = ServerTruth.of(report);
            System.out.println(truth.line("chat"));
            System.out.println("by_turn " + byTurn);
            assertAgreesWithTheServer(truth, server);
            assertThat(truth.serverCachedTokens()).as("llama-server's cached prompt tokens over the run: %s", truth)
                    .isGreaterThanOrEqualTo(Math.round(8 * (byTurn.get(0).path("prompt_tokens_p50").asDouble()
                            - CACHE_SLACK_TOKENS)));
        }
    }

    @Test
    @Timeout(900)
    void responsesAndMessagesMeasureTheSameWorkloadAsChat() throws Exception {
        assumeLlamaServer();
        Map<String, JsonNode> reports = new LinkedHashMap<>();
        Map<String, ServerTruth> truths = new LinkedHashMap<>();
        for (String endpoint : List.of("chat", "responses", "messages")) {
            // a fresh server for each API: each run starts with an empty prefix cache, as the first did
            try (LlamaServer server = LlamaServer.start(tmp, SERVER)) {
                JsonNode report = run(server, endpoint, 8);
                reports.put(endpoint, report);
                assertThat(report.path("capstream").path("run").path("endpoint").asText())
                        .as("capstream.run.endpoint").isEqualTo(endpoint);
                assertThat(report.path("completed").asInt())
                        .as("%s: completed requests (failures: %s)", endpoint, report.path("failures")).isEqualTo(8);
                for (JsonNode r : report.path("request_timings")) {
                    assertThat(r.path("output_token_source").asText()).as("%s: output tokens of %s", endpoint, r)
                            .isEqualTo("usage");
                    assertThat(r.path("output_tokens").asInt()).as("%s: %s", endpoint, r).isPositive();
                }
                ServerTruth truth = ServerTruth.of(report);
                truths.put(endpoint, truth);
                assertAgreesWithTheServer(truth, server);
            }
        }
        truths.forEach((e, t) -> System.out.println(t.line(e)));
        reports.forEach((e, r) -> System.out.println(e + " TTFT p50 " + ttftP50(r) + " ms"));
        // The same workload, token for token: the same prompts in the same order of turns, which llama-server
        // prefilled and served from its cache alike. Timings are compared with each run's own server above
        // (prefill inside TTFT, decode rate): three runs one after another on a busy machine cannot be compared
        // with each other by their wall-clock figures.
        List<Long> chatPrompts = promptTokens(reports.get("chat"));
        for (String endpoint : List.of("responses", "messages")) {
            assertThat(promptTokens(reports.get(endpoint)))
                    .as("%s's prompt tokens per request (from usage), sorted, against chat's", endpoint)
                    .isEqualTo(chatPrompts);
            assertThat(truths.get(endpoint).serverPromptTokens() + truths.get(endpoint).serverCachedTokens())
                    .as("llama-server's prompt tokens (prefilled + cached) for %s against chat's: %s", endpoint, truths)
                    .isEqualTo(truths.get("chat").serverPromptTokens() + truths.get("chat").serverCachedTokens());
        }
    }

    /** @return the rows' {@code prompt_tokens}, sorted */
    private static List<Long> promptTokens(JsonNode report) {
        List<Long> tokens = new ArrayList<>();
        report.path("request_timings").forEach(r -> tokens.add(r.path("prompt_tokens").asLong()));
        tokens.sort(null);
        return tokens;
    }

    private static void assumeLlamaServer() {
        assumeTrue(LlamaServer.binary() != null && LlamaServer.model() != null,
                "llama-server is not built here (peers llama-server.sh build, or set CAPSTREAM_LLAMA_SERVER and"
                        + " CAPSTREAM_LLAMA_MODEL)");
    }

    private JsonNode run(LlamaServer server, String endpoint, int requests) throws Exception {
        Path out = tmp.resolve(endpoint + "-" + requests + ".json");
        List<String> args = new ArrayList<>(List.of("run", "--base-url", server.url("/v1"), "--endpoint", endpoint,
                "--requests", Integer.toString(requests), "--server-metrics", server.url("/metrics"), "--output",
                out.toString()));
        args.addAll(CHECK);
        int code = CapstreamMain.execute(args.toArray(String[]::new));
        JsonNode report = Files.isRegularFile(out) ? ArtifactJson.read(out) : null;
        if (report != null) {
            assertThat(report.path("failed").asInt()).as("failed requests of run --endpoint %s: %s", endpoint,
                    report.path("failures")).isZero();
        }
        assertThat(code).as("exit code of run --endpoint %s; llama-server's log ends:%n%s", endpoint,
                tail(server.log(), 2000)).isZero();
        return report;
    }

    private static String tail(String text, int chars) {
        return text.length() <= chars ? text : text.substring(text.length() - chars);
    }

    private static double ttftP50(JsonNode report) {
        return report.path("metrics").path("ttft_p50_ms").asDouble();
    }

    /**
     * The client's figures against llama-server's counters over the same run: the same output tokens, the same
     * prompt tokens (prefilled plus cached), at least the server's prompt time in TTFT, and a decode rate within 2x
     * of the server's own.
     */
    private static void assertAgreesWithTheServer(ServerTruth t, LlamaServer server) throws Exception {
        assertThat(t.serverOutputTokens()).as("llama-server's tokens_predicted_total rose by the run's output tokens: %s",
                t).isEqualTo(t.clientOutputTokens());
        assertThat(t.serverPromptTokens() + t.serverCachedTokens())
                .as("llama-server's prompt_tokens_total + prompt_tokens_cached_total rose by the run's prompt tokens: %s",
                        t).isEqualTo(t.clientPromptTokens());
        assertThat(t.serverPromptMs()).as("llama-server counted prompt time: %s", t).isPositive();
        assertThat(t.clientTtftMs()).as("every request's TTFT contains its prefill (llama-server's prompt_ms): %s", t)
                .isGreaterThanOrEqualTo(t.serverPromptMs());
        assertThat(t.clientDecodeTokS()).as("client decode rate within 2x of llama-server's own: %s", t)
                .isBetween(t.serverDecodeTokS() / 2, t.serverDecodeTokS() * 2);
    }
}

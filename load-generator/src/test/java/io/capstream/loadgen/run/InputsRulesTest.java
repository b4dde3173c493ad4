package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The usage rules of {@code --endpoint embeddings|rerank} and {@code --batch} (issue 30). */
class InputsRulesTest {
    private static RunConfig run(ApiEndpoint e) {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m")).withTarget(t -> t.withEndpoint(e));
    }

    private static List<String> problems(RunConfig c) {
        return RunValidator.problems(c, k -> null);
    }

    private static PayloadShape batch(int n) {
        return new PayloadShape(0, List.of(), null, n);
    }

    @Test
    void embeddingsAndRerankWithTheirDefaultsAndABatchAreValid() {
        assertThat(problems(run(ApiEndpoint.EMBEDDINGS))).as("embeddings with every default").isEmpty();
        assertThat(problems(run(ApiEndpoint.RERANK).withPayload(batch(8)))).as("rerank --batch 8").isEmpty();
        assertThat(problems(run(ApiEndpoint.EMBEDDINGS).withRequest(r -> r.withSharedPrefixTokens(0)
                .withInputTokens(new LengthDistribution(512, 64)).withExtraBody(ExtraBody.parse("{\"dimensions\":64}")))))
                .as("embeddings with --shared-prefix-tokens 0, --input-tokens and --extra-body dimensions").isEmpty();
    }

    @Test
    void batchBelongsToEmbeddingsAndRerank() {
        assertThat(problems(run(ApiEndpoint.CHAT).withPayload(batch(4)))).as("chat --batch 4")
                .containsExactly("--batch applies to --endpoint embeddings or rerank (inputs or documents per request)");
    }

    @Test
    void rerankWithoutDocumentsIsAUsageError() {
        assertThat(problems(run(ApiEndpoint.RERANK).withPayload(batch(0)))).as("rerank --batch 0")
                .containsExactly("--batch must be at least 1, got 0");
    }

    @Test
    void generationOptionsAreRefused() {
        String with = " with --endpoint embeddings (it embeds inputs and generates nothing)";
        RunConfig c = run(ApiEndpoint.EMBEDDINGS)
                .withRequest(r -> r.withMaxTokens(16).withThinkingMode(ThinkingMode.DISABLED)
                        .withSharedPrefixTokens(100).withExtraBody(ExtraBody.parse("{\"input\":[\"x\"]}")))
                .withConversation(new ConversationShape(new LengthDistribution(3, 0), null, null, null, null, null,
                        null, null, null))
                .withPayload(new PayloadShape(2, List.of(), null, null))
                .withCancel(new CancelShape(0.5, 0.1, null));
        assertThat(problems(c)).as("embeddings with generation options").containsExactly(
                "--images applies to --endpoint chat, responses or messages (embeddings requests have no user messages)",
                "--turns and --tools do not apply" + with,
                "--thinking-mode, --no-thinking and --reasoning-effort do not apply" + with,
                "--max-tokens and --output-tokens do not apply" + with,
                "--cancel-rate does not apply" + with + ": there is no stream to close",
                "--shared-prefix-tokens does not apply" + with + ": every input is a distinct passage",
                "--extra-body may not set \"input\" with --endpoint embeddings: capstream sets it");
    }

    @Test
    void rerankNamesWhatItDoes() {
        assertThat(problems(run(ApiEndpoint.RERANK).withRequest(r -> r.withOutputTokens(new LengthDistribution(8, 0)))))
                .as("rerank --output-tokens").containsExactly("--max-tokens and --output-tokens do not apply with"
                        + " --endpoint rerank (it ranks documents and generates nothing)");
    }

    /**
     * Fresh-user pass: embeddings and rerank send no max_tokens, so the prompt cap of a window is the window minus
     * --margin (before: minus the unsent default --max-tokens 64 too, a 448-token cap in a 512-token window, and a
     * message suggesting --max-tokens, which these endpoints refuse).
     */
    @Test
    void thePromptCapOfEmbeddingsIsTheWholeWindowLessTheMargin() throws Exception {
        RunConfig explicit = run(ApiEndpoint.EMBEDDINGS).withRequest(r -> r.withMargin(0).withMaxModelLen(512)
                .withCtxTokens(500));
        assertThat(problems(explicit)).as("embeddings --max-model-len 512 --margin 0 --ctx-tokens 500").isEmpty();
        assertThat(problems(explicit.withRequest(r -> r.withCtxTokens(600)))).as("--ctx-tokens 600").containsExactly(
                "--ctx-tokens 600 exceeds the prompt cap of 512 tokens = --max-model-len 512 - --margin 0; lower"
                        + " --ctx-tokens (at most 512), or --margin");
        RunConfig probed = run(ApiEndpoint.RERANK).withRequest(r -> r.withMargin(0).withCtxTokens(600));
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> RunPlanner.complete(probed, 512,
                        io.capstream.loadgen.workload.ApiKey.none()).get());
        assertThat(((UsageException) e.getCause()).problems()).as("rerank --ctx-tokens 600 in a probed 512 window")
                .containsExactly("--ctx-tokens 600 exceeds the prompt cap of 512 tokens = the model's window 512"
                        + " (GET /models) - --margin 0; lower --ctx-tokens (at most 512), or --margin");
        assertThat(RunPlanner.complete(probed.withRequest(r -> r.withCtxTokens(512)), 512,
                io.capstream.loadgen.workload.ApiKey.none())).as("rerank --ctx-tokens 512 in a probed 512 window")
                .succeedsWithin(java.time.Duration.ofSeconds(30));
        assertThat(problems(run(ApiEndpoint.EMBEDDINGS).withRequest(r -> r.withMargin(600).withMaxModelLen(512))))
                .as("--margin 600 in a 512 window").containsExactly("--max-model-len 512 must exceed --margin (600)");
        assertThat(problems(run(ApiEndpoint.CHAT).withRequest(r -> r.withMargin(0).withMaxModelLen(512)
                .withCtxTokens(500)))).as("chat keeps room for --max-tokens").containsExactly("--ctx-tokens 500 exceeds"
                        + " the prompt cap of 448 tokens = --max-model-len 512 - --max-tokens 64 - --margin 0; lower"
                        + " --ctx-tokens (at most 448), or --max-tokens or --margin");
    }

    @Test
    void theDefaultInputLengthIs256TokensForEmbeddingsOnly() {
        assertThat(InputsRules.contextTokens(run(ApiEndpoint.EMBEDDINGS))).as("embeddings default").isEqualTo(256);
        assertThat(InputsRules.contextTokens(run(ApiEndpoint.RERANK).withRequest(r -> r.withCtxTokens(100))))
                .as("rerank --ctx-tokens 100").isEqualTo(100);
        assertThat(InputsRules.contextTokens(run(ApiEndpoint.CHAT))).as("chat: the reference's distribution").isZero();
    }

    @Test
    void theAggregatePromptGuardCountsEveryInputOfABatch() throws Exception {
        // --endpoint embeddings --batch 3000000 --requests 1: 768 M characters of inputs in one body; before the fix the
        // plan passed, the body builder blocked a worker thread for a minute and the request failed with an
        // OutOfMemoryError ("Required array length ... is too large")
        RunConfig huge = run(ApiEndpoint.EMBEDDINGS).withLoad(l -> l.withRequests(1)).withPayload(batch(3_000_000));
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> RunPlanner.complete(huge, null,
                        io.capstream.loadgen.workload.ApiKey.none()).get());
        assertThat(((UsageException) e.getCause()).problems()).as("planning embeddings --batch 3000000 --requests 1")
                .containsExactly("aggregate prompt guard: 1 requests x 3000000 inputs x 256 context tokens = 768000000"
                        + " exceeds 67108864 tokens (lower --batch, --requests or the input length)");
        assertThat(problems(run(ApiEndpoint.RERANK).withPayload(batch(Integer.MAX_VALUE))
                .withRequest(r -> r.withCtxTokens(1_048_576)))).as("rerank --batch 2^31-1 --ctx-tokens 1048576")
                .containsExactly("aggregate prompt guard: 60 requests x 2147483647 inputs x 1048576 context tokens ="
                        + " more than 67108864 exceeds 67108864 tokens (lower --batch, --requests or the input length)");
        assertThat(RunPlanner.complete(run(ApiEndpoint.EMBEDDINGS).withPayload(batch(4096)), null,
                io.capstream.loadgen.workload.ApiKey.none())).as("60 requests x 4096 inputs x 256 tokens (62.9 M)")
                .succeedsWithin(java.time.Duration.ofSeconds(30));
    }
}

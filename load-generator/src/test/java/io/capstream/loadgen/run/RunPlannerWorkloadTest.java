package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.RequestPlan;
import io.capstream.schemas.avro.RunStarted;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class RunPlannerWorkloadTest {
    private static final Path DIR = Path.of("src/test/resources/datasets");

    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "some-model"))
                .withLoad(l -> l.withRequests(5));
    }

    private static RunPlan plan(RunConfig b, Integer window) throws Exception {
        return RunPlanner.complete(b, window, ApiKey.none()).get();
    }

    private static List<String> problems(RunConfig b, Integer window) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> plan(b, window));
        return ((UsageException) e.getCause()).problems();
    }

    private static RunStarted started(RunPlan p) {
        return (RunStarted) new EventFactory("r", "w", p).runStarted(Instant.EPOCH).getPayload();
    }

    @Test
    void withoutTheNewOptionsThePlanIsTheReferenceOne() throws Exception {
        RunPlan p = plan(b(), 32_768);
        assertSame(RequestPlan.SYNTHETIC, p.requestPlan());
        assertEquals(64, p.largestMaxTokens());
        RunStarted rs = started(p);
        assertEquals(64, rs.getMaxTokens());
        assertNull(rs.getDatasetName());
        assertNull(rs.getDatasetSha256());
        assertNull(rs.getInputTokensMean());
        assertNull(rs.getOutputTokensMean());
    }

    @Test
    void aDatasetGivesEachRequestItsEntryPromptTokensAndOutputLength() throws Exception {
        RunPlan p = plan(b().withRequest(r -> r.withDataset(DIR.resolve("chat.jsonl"))), 32_768);
        // entries: 14 prompt tokens / max_tokens 12, 8 / none (--max-tokens 64), 14 / 40; request i = entry i mod 3
        assertArrayEquals(new int[] {14, 8, 14, 14, 8}, p.contextPlan().toArray());
        RequestPlan r = p.requestPlan();
        assertEquals(List.of(12, 64, 40, 12, 64), List.of(r.maxTokens(0, 64), r.maxTokens(1, 64), r.maxTokens(2, 64),
                r.maxTokens(3, 64), r.maxTokens(4, 64)));
        assertEquals(32_768 - 64 - 1024, p.cap());
        RunStarted rs = started(p);
        assertEquals("chat.jsonl", rs.getDatasetName());
        assertEquals("e0c910b99c7c9c712dcc1f719628561193c37adfad6f99a3600be52611556621", rs.getDatasetSha256());
        assertEquals(3, rs.getDatasetEntries());
        assertNull(rs.getTokenizer());
        assertEquals(64, rs.getMaxTokens());
        assertEquals(List.of(14, 8, 14, 14, 8), rs.getPlannedContextTokens());
    }

    @Test
    void outputTokensOverrideTheDatasetsAndTheWindowRuleUsesTheLargest() throws Exception {
        RunConfig b = b()
                .withRequest(r -> r.withDataset(DIR.resolve("sharegpt.json")).withTokenizer(DIR.resolve("wordlevel-tokenizer.json")).withOutputTokens(new LengthDistribution(200, 50)))
                .withIdentity(i -> i.withSeed(3));
        RunPlan p = plan(b, 32_768);
        int[] expected = new LengthDistribution(200, 50).sample(5, 3, LengthDistribution.OUTPUT_SALT, 1, 65_536);
        int largest = java.util.Arrays.stream(expected).max().orElseThrow();
        assertEquals(largest, p.largestMaxTokens());
        assertEquals(expected[4], p.requestPlan().maxTokens(4, 64));
        assertEquals(32_768 - largest - 1024, p.cap());
        assertArrayEquals(new int[] {2, 2, 2, 2, 2}, p.contextPlan().toArray());
        RunStarted rs = started(p);
        assertEquals(largest, rs.getMaxTokens());
        assertEquals("wordlevel-tokenizer.json", rs.getTokenizer());
        assertEquals(200.0, rs.getOutputTokensMean());
        assertEquals(50.0, rs.getOutputTokensStddev());
        assertEquals(List.of("max model length 1100 must exceed the largest max_tokens + --margin (" + largest
                + " + 1024)"), problems(b, 1100));
    }

    @Test
    void inputTokensDrawSyntheticPromptLengthsClampedToTheCap() throws Exception {
        RunConfig b = b()
                .withLoad(l -> l.withRequests(200))
                .withRequest(r -> r.withInputTokens(new LengthDistribution(3000, 1000)))
                .withIdentity(i -> i.withSeed(9));
        RunPlan p = plan(b, 4096 + 64 + 1024);
        int[] raw = new LengthDistribution(3000, 1000).sample(200, 9, LengthDistribution.INPUT_SALT, 32, 1_048_576);
        int[] planned = p.contextPlan().toArray();
        for (int i = 0; i < raw.length; i++) {
            assertEquals(Math.min(raw[i], 4096), planned[i]);
        }
        assertTrue(java.util.Arrays.stream(raw).anyMatch(v -> v > 4096));
        assertEquals(4096, java.util.Arrays.stream(planned).max().orElseThrow());
        assertEquals(3000.0, started(p).getInputTokensMean());
        assertEquals(1000.0, started(p).getInputTokensStddev());
        assertArrayEquals(planned, plan(b, 4096 + 64 + 1024).contextPlan().toArray());
    }

    @Test
    void anInputTokensMeanOverTheCapIsAUsageErrorNotAClamp() {
        // before the fix: --input-tokens 5000 with --max-model-len 4096 sent prompts of the 3008-token cap while
        // the report recorded input_tokens_mean 5000, with no word on the console
        RunConfig b = b().withRequest(r -> r.withInputTokens(new LengthDistribution(5000, 0)).withMaxModelLen(4096));
        assertThat(problems(b, 4096)).as("--input-tokens 5000 --max-model-len 4096").containsExactly(
                "--input-tokens mean 5000 exceeds the prompt cap of 3008 tokens = --max-model-len 4096 - max_tokens 64"
                        + " - --margin 1024: every prompt would be cut to 3008; lower the mean (at most 3008), or"
                        + " --max-tokens or --margin");
        assertThat(problems(b().withRequest(r -> r.withInputTokens(new LengthDistribution(5000, 0))), 4096))
                .as("--input-tokens 5000 against a probed window of 4096").containsExactly(
                        "--input-tokens mean 5000 exceeds the prompt cap of 3008 tokens = the model's window 4096"
                                + " (GET /models) - max_tokens 64 - --margin 1024: every prompt would be cut to 3008;"
                                + " lower the mean (at most 3008), or --max-tokens or --margin");
    }

    @Test
    void aMultiTurnDatasetTakesThinkTimeSessionHeaderAndServerState() throws Exception {
        // before the fix '--dataset turns.jsonl --think-time 100ms' was refused ("give --turns (more than 1)") while
        // '--turns' is refused with a multi-turn dataset: a replayed conversation could have no think time at all
        RunConfig multi = b().withLoad(l -> l.withRequests(4)).withRequest(r -> r.withDataset(DIR.resolve("turns.jsonl")))
                .withConversation(c -> c.withThinkTime(0.1, null).withSessionHeader("X-Session-Id"));
        assertThat(RunValidator.problems(multi, k -> null)).as("validation of a multi-turn dataset with think time")
                .isEmpty();
        assertThat(plan(multi, 32_768).requestPlan().dataset().multiTurn()).as("planned as conversations").isTrue();
        RunConfig single = multi.withRequest(r -> r.withDataset(DIR.resolve("chat.jsonl")));
        assertThat(problems(single, 32_768)).as("a single-turn dataset with think time and a session header")
                .containsExactly("--think-time applies between the turns of a conversation: give --turns (more than 1)"
                        + " (--dataset chat.jsonl holds single prompts)", "--session-header sends the conversation id"
                        + " with every turn of a conversation: give --turns (more than 1) (--dataset chat.jsonl holds"
                        + " single prompts)");
    }

    @Test
    void aDatasetPromptOverTheCapIsAUsageError() {
        assertEquals(List.of("--dataset chat.jsonl: 3 request(s) exceed the prompt cap of 10 tokens (window - largest"
                        + " max_tokens - --margin); first: request 0 (entry 0) has 14 prompt tokens"),
                problems(b().withRequest(r -> r.withDataset(DIR.resolve("chat.jsonl")).withMargin(0)), 10 + 64));
    }

    @Test
    void datasetProblemsAreUsageErrorsBeforeAnythingIsSent() {
        assertEquals(List.of("--dataset empty.jsonl: no entries"), problems(b().withRequest(r -> r.withDataset(DIR.resolve("empty.jsonl"))), null));
        assertEquals(List.of("--tokenizer: no readable file " + DIR.resolve("none.json")),
                problems(b()
                        .withRequest(r -> r.withDataset(DIR.resolve("chat.jsonl")).withTokenizer(DIR.resolve("none.json"))), null));
    }

    @Test
    void conflictingOptionsAreUsageErrors() {
        List<String> e = b()
                .withRequest(r -> r.withDataset(DIR.resolve("chat.jsonl")).withInputTokens(new LengthDistribution(10, 0)).withCtxTokens(64)).validate(k -> null);
        assertThat(e).contains("--dataset and --input-tokens cannot be combined (the dataset's prompts have their own"
                + " lengths)");
        assertThat(e).contains("--ctx-tokens cannot be combined with --dataset");
        assertEquals(List.of("--tokenizer counts the tokens of a --dataset or of --input-tokens prompts; give one of"
                        + " them"),
                b().withRequest(r -> r.withTokenizer(DIR.resolve("wordlevel-tokenizer.json"))).validate(k -> null));
        assertEquals(List.of("--output-tokens needs a mean > 0 and a standard deviation >= 0 (tokens), got 0,0"),
                b().withRequest(r -> r.withOutputTokens(new LengthDistribution(0, 0))).validate(k -> null));
    }

    @Test
    void aTokenizerSizesTheInputTokensPromptsSoThatItCountsTheirPlannedLength() throws Exception {
        Path tok = DIR.resolve("wordlevel-tokenizer.json");
        RunPlan p = plan(b()
                .withRequest(r -> r.withInputTokens(new LengthDistribution(3000, 0)).withTokenizer(tok).withSharedPrefixTokens(1000)), null);
        assertArrayEquals(new int[] {3000, 3000, 3000, 3000, 3000}, p.contextPlan().toArray());
        assertEquals("wordlevel-tokenizer.json", started(p).getTokenizer());
        int built = p.requestPlan().promptTokens(3000);
        // the filler has fewer characters per word-level token than 3: the prompt is built longer than 3000 x 3 chars
        assertTrue(built > 3000, "built at " + built);
        try (io.capstream.loadgen.workload.HfTokenCounter counter = io.capstream.loadgen.workload.HfTokenCounter.open(tok)) {
            String prompt = new io.capstream.loadgen.workload.PromptBuilder(1000).prompt(4, built);
            int tokens = counter.count(prompt);
            assertTrue(Math.abs(tokens - 3000) <= 30, tokens + " tokens");
        }
        // without a tokenizer the prompts are built at the planned length, as the reference's
        assertEquals(3000, plan(b().withRequest(r -> r.withInputTokens(new LengthDistribution(3000, 0))), null).requestPlan().promptTokens(3000));
    }

    /** Issue 26 item 3: a fixed --ctx-tokens above the prompt cap was clamped to it silently. */
    @Test
    void ctxTokensAboveThePromptCapIsRefusedNotClamped() throws Exception {
        assertEquals(List.of("--ctx-tokens 100000 exceeds the prompt cap of 31680 tokens = the model's window 32768"
                        + " (GET /models) - --max-tokens 64 - --margin 1024; lower --ctx-tokens (at most 31680), or"
                        + " --max-tokens or --margin"), problems(b().withRequest(r -> r.withCtxTokens(100_000)), 32_768));
        assertEquals(List.of("--ctx-tokens 4000 exceeds the prompt cap of 3968 tokens = --max-model-len 4096 -"
                        + " --max-tokens 128 - --margin 0; lower --ctx-tokens (at most 3968), or --max-tokens or --margin"),
                b().withRequest(r -> r.withCtxTokens(4000).withMaxModelLen(4096).withMaxTokens(128).withMargin(0))
                        .validate(k -> null));
        assertEquals(List.of("--ctx-tokens 8000 exceeds the prompt cap of 3008 tokens = --max-model-len 4096 -"
                        + " --max-tokens 64 - --margin 1024; lower --ctx-tokens (at most 3008), or --max-tokens or"
                        + " --margin"), b().withRequest(r -> r.withCtxTokens(8000).withMaxModelLen(4096)).validate(k -> null),
                "an explicit window is checked with the other options, before anything starts");
        assertArrayEquals(new int[] {31_680, 31_680, 31_680, 31_680, 31_680},
                plan(b().withRequest(r -> r.withCtxTokens(31_680)), 32_768).contextPlan().toArray(), "exactly the cap fits");
        assertArrayEquals(new int[] {100_000, 100_000, 100_000, 100_000, 100_000},
                plan(b().withRequest(r -> r.withCtxTokens(100_000)), null).contextPlan().toArray(), "an unknown window cannot be checked");
    }
}

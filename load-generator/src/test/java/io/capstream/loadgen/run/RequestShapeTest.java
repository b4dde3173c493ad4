package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.loadgen.workload.ThinkingMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request-shape group: its bounds, the one window rule, the effort rules and the model-family guard. */
class RequestShapeTest {
    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"));
    }

    @Test
    void theDefaultsAreTheReferencesRequestShape() {
        RequestShape r = RequestShape.DEFAULTS;
        assertEquals(new RequestShape(8000, 0, 64, 0, 1024, ThinkingMode.DEFAULT, false, null), r);
        assertEquals(List.of(), r.problems());
    }

    @Test
    void theWindowRuleHasOneWordingNamingTheWindowsSource() {
        RequestShape r = RequestShape.DEFAULTS.withMaxTokens(64).withMargin(1024);
        assertEquals("--max-model-len 1000 must exceed --max-tokens + --margin (1088)", r.windowProblem("--max-model-len", 1000));
        assertEquals("max model length 1088 must exceed --max-tokens + --margin (1088)", r.windowProblem("max model length", 1088));
        assertNull(r.windowProblem("max model length", 1089));
        assertEquals(1, r.promptCap(1089));
        assertEquals(List.of("--max-model-len 1000 must exceed --max-tokens + --margin (1088)"),
                RequestShape.DEFAULTS.withMaxModelLen(1000).problems());
    }

    /**
     * The window rule against the output tokens actually reserved: none for embeddings and rerank, the largest
     * per-request {@code max_tokens} of a dataset. Before, a window that fits them was still held to --max-tokens
     * (a 50-token window of an embeddings run: "must exceed --max-tokens + --margin (64)").
     */
    @Test
    void theWindowRuleWithPerRequestOutputHoldsTheWindowToWhatIsReserved() {
        RequestShape r = RequestShape.DEFAULTS.withMaxTokens(64).withMargin(0);
        assertNull(r.windowProblem("--max-model-len", 50, 0), "embeddings: nothing reserved, 50 tokens fit");
        assertNull(r.windowProblem("--max-model-len", 60, 32), "largest max_tokens 32 fits below 60");
        assertEquals("--max-model-len 0 must exceed --margin (0)", r.windowProblem("--max-model-len", 0, 0));
        assertEquals("--max-model-len 32 must exceed the largest max_tokens + --margin (32 + 0)",
                r.windowProblem("--max-model-len", 32, 32));
        assertEquals("--max-model-len 64 must exceed --max-tokens + --margin (64)",
                r.windowProblem("--max-model-len", 64, 64));
    }

    @Test
    void everyProblemOfTheGroupIsListed() {
        RequestShape r = RequestShape.DEFAULTS.withSharedPrefixTokens(-1).withCtxTokens(31).withMaxTokens(0).withMaxModelLen(2_000_000).withMargin(-1).withReasoningEffort("huge").withNoThinking(true);
        assertEquals(List.of("--shared-prefix-tokens must be between 0 and 262144, got -1",
                "--ctx-tokens must be 0 or between 32 and 1048576, got 31",
                "--max-tokens must be between 1 and 65536, got 0",
                "--max-model-len must be between 0 and 1048576, got 2000000",
                "--margin must be between 0 and 1048576, got -1",
                "--reasoning-effort must be one of none, minimal, low, medium, high, max, xhigh; got 'huge'",
                "--reasoning-effort cannot be combined with --no-thinking or --thinking-mode disabled"), r.problems());
    }

    @Test
    void theModelFamilyGuardNeedsTheModel() {
        RequestShape r = RequestShape.DEFAULTS.withNoThinking(true).withReasoningEffort("max");
        assertEquals(List.of("gpt-oss models do not accept --thinking-mode enabled/disabled or --no-thinking; use --reasoning-effort",
                "gpt-oss models accept --reasoning-effort low, medium or high; got 'max'"), r.modelProblems("openai/GPT-OSS-20b"));
        assertEquals(List.of(), r.modelProblems("DeepSeek-V4-Flash"));
        assertEquals(List.of("Qwen models do not accept --reasoning-effort; use --thinking-mode"), r.modelProblems("Qwen3-8B"));
        assertEquals(List.of(), r.modelProblems(null));
        assertEquals(ThinkingMode.DISABLED, r.resolvedThinkingMode());
    }
}

package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RunConfigTest {
    private static final Function<String, String> NO_ENV = k -> null;

    private static RunConfig.Builder b() {
        return RunConfig.builder("http://127.0.0.1:1/v1", "some-model");
    }

    private static List<String> errors(RunConfig.Builder b) {
        return b.build().validate(NO_ENV);
    }

    private static void assertError(RunConfig.Builder b, String fragment) {
        List<String> e = errors(b);
        assertThat(e).as(() -> "expected '" + fragment + "' in " + e).anyMatch(s -> s.contains(fragment));
    }

    @Test
    void referenceDefaults() {
        RunConfig c = b().build();
        assertEquals(60, c.requests());
        assertEquals(20, c.concurrency());
        assertEquals(0, c.burst());
        assertEquals(8000, c.sharedPrefixTokens());
        assertEquals(0, c.ctxTokens());
        assertEquals(0, c.seed());
        assertEquals(64, c.maxTokens());
        assertEquals(0, c.maxModelLen());
        assertEquals(1024, c.margin());
        assertEquals(900.0, c.timeoutS());
        assertEquals(ThinkingMode.DEFAULT, c.thinkingMode());
        assertEquals(ArrivalMode.CLOSED, c.arrival());
        assertFalse(c.keepAlive());
        assertEquals(List.of(), c.validate(NO_ENV));
    }

    @Test
    void bounds() {
        assertError(b().requests(0), "--requests");
        assertError(b().concurrency(0), "--concurrency");
        assertThat(errors(b().concurrency(5000).requests(5000).ctxTokens(1024))).as("concurrency above 256 is allowed")
                .isEmpty();
        assertError(b().ctxTokens(31), "--ctx-tokens");
        assertError(b().maxTokens(0), "--max-tokens");
        assertError(b().maxModelLen(1000), "must exceed");
        assertError(b().timeoutS(0), "--timeout");
        assertError(b().timeoutS(Double.POSITIVE_INFINITY), "--timeout");
        assertError(b().timeoutS(3601), "--timeout");
        assertError(b().baseUrl(null), "--base-url");
        assertError(b().model(""), "--model");
    }

    @Test
    void burstReplacesRequestsAndConcurrency() {
        RunConfig c = b().burst(7).requests(100).concurrency(3).build();
        assertEquals(7, c.effectiveRequests());
        assertEquals(7, c.effectiveConcurrency());
    }

    @Test
    void aggregatePromptGuard() {
        assertError(b().requests(10000).ctxTokens(8192), "aggregate prompt guard");
        assertThat(errors(b().requests(8192).ctxTokens(8192))).isEmpty();
        // the guard uses the unclamped fixed context even with a small window
        assertError(b().requests(10000).ctxTokens(8192).maxModelLen(4096), "aggregate prompt guard");
        // sampled mode with an explicit window: min(cap, 262144)
        assertError(b().requests(600).maxModelLen(131072), "aggregate prompt guard");
        assertThat(errors(b().requests(500).maxModelLen(131072))).isEmpty();
    }

    @Test
    void reasoningEffortRules() {
        assertError(b().reasoningEffort("huge"), "--reasoning-effort must be one of");
        assertError(b().reasoningEffort("low").noThinking(true), "cannot be combined");
        assertError(b().reasoningEffort("low").thinkingMode(ThinkingMode.UNSUPPORTED), "cannot be combined");
        assertThat(errors(b().reasoningEffort("none"))).isEmpty();
        assertEquals(ThinkingMode.DISABLED, b().noThinking(true).build().resolvedThinkingMode());
    }

    @Test
    void modelFamilyGuard() {
        assertError(b().model("openai/GPT-OSS-20b").thinkingMode(ThinkingMode.ENABLED), "gpt-oss");
        assertError(b().model("gpt-oss-120b").noThinking(true), "gpt-oss");
        assertError(b().model("gpt-oss-120b").reasoningEffort("max"), "low, medium or high");
        assertThat(errors(b().model("gpt-oss-120b").reasoningEffort("medium"))).isEmpty();
        assertError(b().model("DeepSeek-V4-Flash").reasoningEffort("medium"), "low, high or max");
        assertThat(errors(b().model("deepseek_v4").reasoningEffort("max"))).isEmpty();
        assertError(b().model("Qwen3.8-32B").reasoningEffort("high"), "low, medium or xhigh");
        assertThat(errors(b().model("qwen38-a3b").reasoningEffort("xhigh"))).isEmpty();
        assertError(b().model("Qwen3-8B").reasoningEffort("low"), "Qwen models do not accept");
        assertThat(errors(b().model("Qwen3-8B").thinkingMode(ThinkingMode.DISABLED))).isEmpty();
    }

    @Test
    void arrivalOptions() {
        assertError(b().arrival(ArrivalMode.POISSON), "needs --rate");
        assertError(b().rateRps(5.0), "--rate needs --arrival");
        assertError(b().arrival(ArrivalMode.CONSTANT).rateRps(2.0).maxInFlight(0), "--max-in-flight");
        assertError(b().durationS(-1.0), "--duration");
        assertThat(errors(b().arrival(ArrivalMode.CONSTANT).rateRps(2.0).maxInFlight(10).durationS(3.0))).isEmpty();
    }

    @Test
    void apiKeyEnv() {
        assertError(b().apiKeyEnv("CAPSTREAM_TEST_KEY"), "CAPSTREAM_TEST_KEY");
        assertError(b().apiKeyEnv("K"), "missing or empty");
        RunConfig c = b().apiKeyEnv("K").build();
        assertThat(c.validate(Map.of("K", " secret ")::get)).isEmpty();
        assertThat(c.toString()).doesNotContain("secret");
        assertThat(c.validate(Map.of("K", "   ")::get).get(0)).contains("missing or empty");
    }

    @Test
    void baseUrlIsCheckedBeforeAnythingIsSent() {
        // used to pass and hang the run: Vert.x threw on the event loop for every request
        assertEquals(List.of("--base-url is not a valid URL (Expected closing bracket for IPv6 address at index 11):"
                + " 'http://[::1'"), errors(b().baseUrl("http://[::1")));
        assertEquals(List.of("--base-url has port 70000, outside 1..65535: 'http://127.0.0.1:70000/v1'"),
                errors(b().baseUrl("http://127.0.0.1:70000/v1")));
        assertEquals(List.of("--base-url must start with http:// or https://: 'localhost:8000/v1'"),
                errors(b().baseUrl("localhost:8000/v1")));
        assertEquals(List.of("--base-url has port 99999, outside 1..65535: 'http://***@h:99999/v1'"),
                errors(b().baseUrl("http://u:topsecret@h:99999/v1")), "credentials are not echoed");
        assertThat(errors(b().baseUrl("http://[::1]:8000/v1"))).isEmpty();
        assertThat(errors(b().baseUrl("http://u:pw@h:8000/v1"))).isEmpty();
    }

    @Test
    void credentialsInTheUrlAndAnApiKeyCannotBothBeSent() {
        RunConfig c = b().baseUrl("http://u:pw@h:8000/v1").apiKeyEnv("K").build();
        assertEquals(List.of("--base-url carries user:password@ and --api-key-env is set: both would be the"
                + " Authorization header; give one"), c.validate(Map.of("K", "sk-1")::get));
    }

    @Test
    void runIdsThatCannotNameAFileAreUsageErrors() {
        assertEquals(List.of("--run-id must not contain '/' (it names the report file): 'a/b'"),
                errors(b().runId("a/b")));
        assertEquals(List.of("--run-id must not contain control characters (U+001B at index 1)"),
                errors(b().runId("x\u001b[2J")));
        assertEquals(List.of("--run-id is 201 characters long, at most 200"), errors(b().runId("r".repeat(201))));
        assertEquals(List.of("--run-id must not be blank"), errors(b().runId(" ")));
        assertEquals(List.of("--run-id-suffix must not contain '/' (it names the report file): '../x'"),
                errors(b().runIdSuffix("../x")));
        assertEquals(List.of("--run-id-suffix makes the run id 227 characters long, at most 200"),
                errors(b().runIdSuffix("s".repeat(200))));
        assertThat(errors(b().runId("my-run_1.2"))).isEmpty();
        assertThat(errors(b().runIdSuffix("s".repeat(173)))).as("benchmark-YYYYMMDDTHHMMSSZ- + 173 = 200").isEmpty();
    }

    @Test
    void everyProblemOfEveryGroupIsListedGroupByGroup() {
        RunConfig c = b().baseUrl(null).requests(0).maxTokens(0).model("Qwen3-8B").reasoningEffort("low")
                .warmup(new WarmupConfig(0, -1)).runId("a/b").timeoutS(0).build();
        assertEquals(List.of("--base-url is required",
                "--timeout must be a finite number of seconds > 0 and <= 3600, got 0.0",
                "--requests must be between 1 and 100000, got 0",
                "--max-tokens must be between 1 and 65536, got 0",
                "Qwen models do not accept --reasoning-effort; use --thinking-mode",
                "--warmup-requests must be between 0 and 100000, got -1",
                "--run-id must not contain '/' (it names the report file): 'a/b'"), c.validate(NO_ENV));
    }

    @Test
    void theGroupsHoldTheValuesTheShortcutsReturn() {
        RunConfig c = b().engine("vllm").gpu("h100").requests(7).ctxTokens(512).seed(9).runId("r").keepAlive(true)
                .slos(java.util.List.of("ttft_p95_ms<=300"))
                .sweep(io.capstream.schemas.avro.SweepStep.newBuilder().setSweepId("s").setStep(2).setAxis("rate")
                        .setValue(4.0).setMode("grid").setStepsPlanned(3).build())
                .build();
        assertEquals("vllm", c.target().engine());
        assertEquals(true, c.target().keepAlive());
        assertEquals(7, c.load().requests());
        assertEquals(512, c.request().ctxTokens());
        assertEquals(9, c.identity().seed());
        assertEquals("h100", c.identity().gpu());
        assertEquals("r", c.runId());
        assertEquals(List.of("ttft_p95_ms<=300"), c.report().slos());
        assertEquals(2, c.report().sweep().getStep());
        assertEquals(c, c.toBuilder().build(), "toBuilder keeps every value (the SLOs and the sweep step too)");
        // the request options and the rerun marker too (toBuilder dropped them when they were new)
        RunConfig o = c.toBuilder().endpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS)
                .headers(List.of(io.capstream.loadgen.workload.ExtraHeader.parse("X-A: 1")))
                .extraBody(io.capstream.loadgen.workload.ExtraBody.parse("{\"top_p\":0.5}")).rerunOf("r0").build();
        assertEquals(o, o.toBuilder().build());
        assertEquals("r0", o.toBuilder().build().report().rerunOf());
        assertEquals("{\"top_p\":0.5}", o.toBuilder().build().extraBody().json());
    }

    @Test
    void aSimulatedTargetIsCheckedWithoutItsUrlAndBoundOnceTheEngineListens() {
        RunConfig c = b().baseUrl(null).simulated(true).build();
        assertEquals(List.of(), c.validate(NO_ENV));
        RunConfig bound = c.withBaseUrl("http://127.0.0.1:4321/v1");
        assertEquals("http://127.0.0.1:4321/v1", bound.baseUrl());
        assertEquals(c.load(), bound.load());
        assertEquals(c.request(), bound.request());
        assertEquals(c.identity(), bound.identity());
        assertEquals(List.of(), bound.validate(NO_ENV));
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> RunPlanner.plan(null, c, NO_ENV).get());
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
    }

    @Test
    void aProbedWindowTooSmallForTheCompletionIsTheSameRuleAsAnExplicitOne() throws Exception {
        RunConfig c = b().build();
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> RunPlanner.complete(c, 1000, io.capstream.loadgen.workload.ApiKey.none()).get());
        assertEquals(List.of("max model length 1000 must exceed --max-tokens + --margin (1088)"),
                ((UsageException) e.getCause()).problems());
        assertEquals(List.of("--max-model-len 1000 must exceed --max-tokens + --margin (1088)"),
                errors(b().maxModelLen(1000)));
        assertEquals(Integer.valueOf(1), RunPlanner.complete(c, 1089, io.capstream.loadgen.workload.ApiKey.none()).get().cap());
    }
}

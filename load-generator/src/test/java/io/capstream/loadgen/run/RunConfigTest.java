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

    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "some-model"));
    }

    private static List<String> errors(RunConfig b) {
        return b.validate(NO_ENV);
    }

    private static void assertError(RunConfig b, String fragment) {
        List<String> e = errors(b);
        assertThat(e).as(() -> "expected '" + fragment + "' in " + e).anyMatch(s -> s.contains(fragment));
    }

    @Test
    void referenceDefaults() {
        RunConfig c = b();
        assertEquals(60, c.load().requests());
        assertEquals(20, c.load().concurrency());
        assertEquals(0, c.load().burst());
        assertEquals(8000, c.request().sharedPrefixTokens());
        assertEquals(0, c.request().ctxTokens());
        assertEquals(0, c.identity().seed());
        assertEquals(64, c.request().maxTokens());
        assertEquals(0, c.request().maxModelLen());
        assertEquals(1024, c.request().margin());
        assertEquals(900.0, c.target().timeoutS());
        assertEquals(ThinkingMode.DEFAULT, c.request().thinkingMode());
        assertEquals(ArrivalMode.CLOSED, c.load().arrival());
        assertFalse(c.target().keepAlive());
        assertEquals(List.of(), c.validate(NO_ENV));
    }

    @Test
    void bounds() {
        assertError(b().withLoad(l -> l.withRequests(0)), "--requests");
        assertError(b().withLoad(l -> l.withConcurrency(0)), "--concurrency");
        assertThat(errors(b()
                .withLoad(l -> l.withConcurrency(5000).withRequests(5000))
                .withRequest(r -> r.withCtxTokens(1024)))).as("concurrency above 256 is allowed").isEmpty();
        assertError(b().withRequest(r -> r.withCtxTokens(31)), "--ctx-tokens");
        assertError(b().withRequest(r -> r.withMaxTokens(0)), "--max-tokens");
        assertError(b().withRequest(r -> r.withMaxModelLen(1000)), "must exceed");
        assertError(b().withTarget(t -> t.withTimeoutS(0)), "--timeout");
        assertError(b().withTarget(t -> t.withTimeoutS(Double.POSITIVE_INFINITY)), "--timeout");
        assertError(b().withTarget(t -> t.withTimeoutS(3601)), "--timeout");
        assertError(b().withTarget(t -> TargetConfig.of(null, t.model())), "--base-url");
        assertError(b().withTarget(t -> t.withModel("")), "--model");
    }

    @Test
    void burstReplacesRequestsAndConcurrency() {
        RunConfig c = b().withLoad(l -> l.withBurst(7).withRequests(100).withConcurrency(3));
        assertEquals(7, c.load().effectiveRequests());
        assertEquals(7, c.load().effectiveConcurrency());
    }

    @Test
    void aggregatePromptGuard() {
        assertError(b().withLoad(l -> l.withRequests(10000)).withRequest(r -> r.withCtxTokens(8192)), "aggregate prompt guard");
        assertThat(errors(b().withLoad(l -> l.withRequests(8192)).withRequest(r -> r.withCtxTokens(8192)))).isEmpty();
        // the guard uses the unclamped fixed context even with a small window
        assertError(b()
                .withLoad(l -> l.withRequests(10000))
                .withRequest(r -> r.withCtxTokens(8192).withMaxModelLen(4096)), "aggregate prompt guard");
        // sampled mode with an explicit window: min(cap, 262144)
        assertError(b().withLoad(l -> l.withRequests(600)).withRequest(r -> r.withMaxModelLen(131072)), "aggregate prompt guard");
        assertThat(errors(b().withLoad(l -> l.withRequests(500)).withRequest(r -> r.withMaxModelLen(131072)))).isEmpty();
    }

    @Test
    void reasoningEffortRules() {
        assertError(b().withRequest(r -> r.withReasoningEffort("huge")), "--reasoning-effort must be one of");
        assertError(b().withRequest(r -> r.withReasoningEffort("low").withNoThinking(true)), "cannot be combined");
        assertError(b()
                .withRequest(r -> r.withReasoningEffort("low").withThinkingMode(ThinkingMode.UNSUPPORTED)), "cannot be combined");
        assertThat(errors(b().withRequest(r -> r.withReasoningEffort("none")))).isEmpty();
        assertEquals(ThinkingMode.DISABLED, b().withRequest(r -> r.withNoThinking(true)).request().resolvedThinkingMode());
    }

    @Test
    void modelFamilyGuard() {
        assertError(b()
                .withTarget(t -> t.withModel("openai/GPT-OSS-20b"))
                .withRequest(r -> r.withThinkingMode(ThinkingMode.ENABLED)), "gpt-oss");
        assertError(b().withTarget(t -> t.withModel("gpt-oss-120b")).withRequest(r -> r.withNoThinking(true)), "gpt-oss");
        assertError(b()
                .withTarget(t -> t.withModel("gpt-oss-120b"))
                .withRequest(r -> r.withReasoningEffort("max")), "low, medium or high");
        assertThat(errors(b()
                .withTarget(t -> t.withModel("gpt-oss-120b"))
                .withRequest(r -> r.withReasoningEffort("medium")))).isEmpty();
        assertError(b()
                .withTarget(t -> t.withModel("DeepSeek-V4-Flash"))
                .withRequest(r -> r.withReasoningEffort("medium")), "low, high or max");
        assertThat(errors(b()
                .withTarget(t -> t.withModel("deepseek_v4"))
                .withRequest(r -> r.withReasoningEffort("max")))).isEmpty();
        assertError(b()
                .withTarget(t -> t.withModel("Qwen3.8-32B"))
                .withRequest(r -> r.withReasoningEffort("high")), "low, medium or xhigh");
        assertThat(errors(b()
                .withTarget(t -> t.withModel("qwen38-a3b"))
                .withRequest(r -> r.withReasoningEffort("xhigh")))).isEmpty();
        assertError(b()
                .withTarget(t -> t.withModel("Qwen3-8B"))
                .withRequest(r -> r.withReasoningEffort("low")), "Qwen models do not accept");
        assertThat(errors(b()
                .withTarget(t -> t.withModel("Qwen3-8B"))
                .withRequest(r -> r.withThinkingMode(ThinkingMode.DISABLED)))).isEmpty();
    }

    @Test
    void arrivalOptions() {
        assertError(b().withLoad(l -> l.withArrival(ArrivalMode.POISSON)), "needs --rate");
        assertError(b().withLoad(l -> l.withRateRps(5.0)), "--rate needs --arrival");
        assertError(b().withLoad(l -> l.withArrival(ArrivalMode.CONSTANT).withRateRps(2.0).withMaxInFlight(0)), "--max-in-flight");
        assertError(b().withLoad(l -> l.withDurationS(-1.0)), "--duration");
        assertThat(errors(b()
                .withLoad(l -> l.withArrival(ArrivalMode.CONSTANT).withRateRps(2.0).withMaxInFlight(10).withDurationS(3.0)))).isEmpty();
    }

    @Test
    void apiKeyEnv() {
        assertError(b().withTarget(t -> t.withApiKeyEnv("CAPSTREAM_TEST_KEY")), "CAPSTREAM_TEST_KEY");
        assertError(b().withTarget(t -> t.withApiKeyEnv("K")), "missing or empty");
        RunConfig c = b().withTarget(t -> t.withApiKeyEnv("K"));
        assertThat(c.validate(Map.of("K", " secret ")::get)).isEmpty();
        assertThat(c.toString()).doesNotContain("secret");
        assertThat(c.validate(Map.of("K", "   ")::get).get(0)).contains("missing or empty");
    }

    @Test
    void baseUrlIsCheckedBeforeAnythingIsSent() {
        // used to pass and hang the run: Vert.x threw on the event loop for every request
        assertEquals(List.of("--base-url is not a valid URL (Expected closing bracket for IPv6 address at index 11):"
                + " 'http://[::1'"), errors(b().withBaseUrl("http://[::1")));
        assertEquals(List.of("--base-url has port 70000, outside 1..65535: 'http://127.0.0.1:70000/v1'"),
                errors(b().withBaseUrl("http://127.0.0.1:70000/v1")));
        assertEquals(List.of("--base-url must start with http:// or https://: 'localhost:8000/v1'"),
                errors(b().withBaseUrl("localhost:8000/v1")));
        assertEquals(List.of("--base-url has port 99999, outside 1..65535: 'http://***@h:99999/v1'"),
                errors(b().withBaseUrl("http://u:topsecret@h:99999/v1")), "credentials are not echoed");
        assertThat(errors(b().withBaseUrl("http://[::1]:8000/v1"))).isEmpty();
        assertThat(errors(b().withBaseUrl("http://u:pw@h:8000/v1"))).isEmpty();
    }

    @Test
    void credentialsInTheUrlAndAnApiKeyCannotBothBeSent() {
        RunConfig c = b().withBaseUrl("http://u:pw@h:8000/v1").withTarget(t -> t.withApiKeyEnv("K"));
        assertEquals(List.of("--base-url carries user:password@ and --api-key-env is set: both would be the"
                + " Authorization header; give one"), c.validate(Map.of("K", "sk-1")::get));
    }

    @Test
    void runIdsThatCannotNameAFileAreUsageErrors() {
        assertEquals(List.of("--run-id must not contain '/' (it names the report file): 'a/b'"),
                errors(b().withIdentity(i -> i.withRunId("a/b"))));
        assertEquals(List.of("--run-id must not contain control characters (U+001B at index 1)"),
                errors(b().withIdentity(i -> i.withRunId("x\u001b[2J"))));
        assertEquals(List.of("--run-id is 201 characters long, at most 200"), errors(b().withIdentity(i -> i.withRunId("r".repeat(201)))));
        assertEquals(List.of("--run-id must not be blank"), errors(b().withIdentity(i -> i.withRunId(" "))));
        assertEquals(List.of("--run-id-suffix must not contain '/' (it names the report file): '../x'"),
                errors(b().withIdentity(i -> i.withRunIdSuffix("../x"))));
        assertEquals(List.of("--run-id-suffix makes the run id 227 characters long, at most 200"),
                errors(b().withIdentity(i -> i.withRunIdSuffix("s".repeat(200)))));
        assertThat(errors(b().withIdentity(i -> i.withRunId("my-run_1.2")))).isEmpty();
        assertThat(errors(b().withIdentity(i -> i.withRunIdSuffix("s".repeat(173))))).as("benchmark-YYYYMMDDTHHMMSSZ- + 173 = 200")
                .isEmpty();
    }

    @Test
    void everyProblemOfEveryGroupIsListedGroupByGroup() {
        RunConfig c = b()
                .withTarget(t -> TargetConfig.of(null, t.model()))
                .withWarmup(new WarmupConfig(0, -1))
                .withTarget(t -> t.withModel("Qwen3-8B").withTimeoutS(0))
                .withLoad(l -> l.withRequests(0))
                .withRequest(r -> r.withMaxTokens(0).withReasoningEffort("low"))
                .withIdentity(i -> i.withRunId("a/b"));
        assertEquals(List.of("--base-url is required",
                "--timeout must be a finite number of seconds > 0 and <= 3600, got 0.0",
                "--requests must be between 1 and 100000, got 0",
                "--max-tokens must be between 1 and 65536, got 0",
                "Qwen models do not accept --reasoning-effort; use --thinking-mode",
                "--warmup-requests must be between 0 and 100000, got -1",
                "--run-id must not contain '/' (it names the report file): 'a/b'"), c.validate(NO_ENV));
    }

    @Test
    void eachGroupHoldsItsValues() {
        RunConfig c = b()
                .withTarget(t -> t.withEngine("vllm").withKeepAlive(true))
                .withLoad(l -> l.withRequests(7))
                .withRequest(r -> r.withCtxTokens(512))
                .withIdentity(i -> i.withGpu("h100").withSeed(9).withRunId("r"))
                .withReport(x -> x.withSlos(java.util.List.of("ttft_p95_ms<=300")).withSweep(io.capstream.schemas.avro.SweepStep.newBuilder().setSweepId("s").setStep(2).setAxis("rate")
                        .setValue(4.0).setMode("grid").setStepsPlanned(3).build()));
        assertEquals("vllm", c.target().engine());
        assertEquals(true, c.target().keepAlive());
        assertEquals(7, c.load().requests());
        assertEquals(512, c.request().ctxTokens());
        assertEquals(9, c.identity().seed());
        assertEquals("h100", c.identity().gpu());
        assertEquals("r", c.identity().runId());
        assertEquals(List.of("ttft_p95_ms<=300"), c.report().slos());
        assertEquals(2, c.report().sweep().getStep());
        RunConfig o = c.withTarget(t -> t.withEndpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS).withHeaders(List.of(io.capstream.loadgen.workload.ExtraHeader.parse("X-A: 1"))))
                .withRequest(r -> r.withExtraBody(io.capstream.loadgen.workload.ExtraBody.parse("{\"top_p\":0.5}")))
                .withReport(x -> x.withRerunOf("r0"));
        assertEquals(c.identity(), o.identity(), "a group's change keeps the other groups");
        assertEquals(c.load(), o.load());
        assertEquals("r0", o.report().rerunOf());
        assertEquals("{\"top_p\":0.5}", o.request().extraBody().json());
    }

    @Test
    void aSimulatedTargetIsCheckedWithoutItsUrlAndBoundOnceTheEngineListens() {
        RunConfig c = b().withTarget(TargetConfig.simulated("some-model"));
        assertEquals(List.of(), c.validate(NO_ENV));
        RunConfig bound = c.withBaseUrl("http://127.0.0.1:4321/v1");
        assertEquals("http://127.0.0.1:4321/v1", bound.target().baseUrl());
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
        RunConfig c = b();
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> RunPlanner.complete(c, 1000, io.capstream.loadgen.workload.ApiKey.none()).get());
        assertEquals(List.of("max model length 1000 must exceed --max-tokens + --margin (1088)"),
                ((UsageException) e.getCause()).problems());
        assertEquals(List.of("--max-model-len 1000 must exceed --max-tokens + --margin (1088)"),
                errors(b().withRequest(r -> r.withMaxModelLen(1000))));
        assertEquals(Integer.valueOf(1), RunPlanner.complete(c, 1089, io.capstream.loadgen.workload.ApiKey.none()).get().cap());
    }
}

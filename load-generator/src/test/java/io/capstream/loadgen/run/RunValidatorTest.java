package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A run built from its groups' defaults, and the one place that validates it whole. */
class RunValidatorTest {
    private static final Function<String, String> NO_ENV = k -> null;

    private static RunConfig run() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"));
    }

    @Test
    void aRunFromItsTargetHasTheReferenceDefaultsOfEveryGroup() {
        RunConfig c = run();
        assertThat(c.target()).as("target").isEqualTo(new TargetConfig("http://127.0.0.1:1/v1", false, "m", null, null,
                900.0, false));
        assertThat(c.load()).as("load").isEqualTo(new LoadShape(60, 20, 0, ArrivalMode.CLOSED, null, null, null, null));
        assertThat(c.request()).as("request").isEqualTo(new RequestShape(8000, 0, 64, 0, 1024, ThinkingMode.DEFAULT,
                false, null));
        assertThat(c.identity()).as("identity").isEqualTo(new RunIdentity(null, null, null, 1, 0, null));
        assertThat(c.warmup()).as("warm-up").isEqualTo(WarmupConfig.NONE);
        assertThat(c.report()).as("report context").isEqualTo(ReportContext.NONE);
        assertThat(c.serverMetrics()).as("server metrics").isEqualTo(ServerMetricsConfig.OFF);
        assertThat(RunValidator.problems(c, NO_ENV)).as("the defaults are valid").isEmpty();
    }

    @Test
    void aGroupChangeKeepsTheOtherGroups() {
        RunConfig c = run().withLoad(l -> l.withRequests(5).withConcurrency(2))
                .withRequest(r -> r.withCtxTokens(64).withMaxModelLen(4096));
        assertThat(c.load()).isEqualTo(LoadShape.DEFAULTS.withRequests(5).withConcurrency(2));
        assertThat(c.request()).isEqualTo(RequestShape.DEFAULTS.withCtxTokens(64).withMaxModelLen(4096));
        assertThat(c.withTarget(t -> t.withKeepAlive(true))).as("only the target changes")
                .isEqualTo(c.withTarget(new TargetConfig("http://127.0.0.1:1/v1", false, "m", null, null, 900.0, true)));
    }

    @Test
    void theWholeRunIsTheGroupsOwnChecksThenTheRulesThatSpanThem() {
        RunConfig c = run().withTarget(t -> t.withModel("Qwen3-8B").withTimeoutS(0))
                .withLoad(l -> l.withRequests(100_000))
                .withRequest(r -> r.withCtxTokens(1000).withMaxTokens(0).withReasoningEffort("low"))
                .withWarmup(new WarmupConfig(0, -1))
                .withIdentity(i -> i.withRunId("a/b"));
        List<String> expected = new ArrayList<>(c.target().problems(NO_ENV));
        expected.addAll(c.load().problems());
        expected.addAll(c.request().problems());
        expected.addAll(c.request().modelProblems("Qwen3-8B"));
        expected.add("aggregate prompt guard: 100000 requests x 1000 context tokens = 100000000 exceeds 67108864 tokens");
        expected.addAll(c.warmup().validate());
        expected.addAll(c.identity().problems());
        assertThat(RunValidator.problems(c, NO_ENV)).as("every problem, group by group, the cross-group rules between")
                .containsExactlyElementsOf(expected).hasSize(6);
        assertThat(c.validate(NO_ENV)).as("RunConfig.validate is the same check").isEqualTo(RunValidator.problems(c, NO_ENV));
    }

    @Test
    void theWindowRulesNameTheWindowsSource() {
        RunConfig probed = run().withRequest(r -> r.withCtxTokens(4000));
        assertThat(RunValidator.windowProblem(probed, 1000, 64))
                .isEqualTo("max model length 1000 must exceed --max-tokens + --margin (1088)");
        assertThat(RunValidator.windowProblem(probed, 4096, 64)).isEqualTo("--ctx-tokens 4000 exceeds the prompt cap of"
                + " 3008 tokens = the model's window 4096 (GET /models) - --max-tokens 64 - --margin 1024; lower"
                + " --ctx-tokens (at most 3008), or --max-tokens or --margin");
        assertThat(RunValidator.windowProblem(probed, 8192, 64)).as("the context fits").isNull();
        assertThat(RunValidator.windowChecked(probed)).as("a probed window is checked after the probe").isFalse();
        RunConfig explicit = probed.withRequest(r -> r.withMaxModelLen(4096));
        assertThat(RunValidator.windowChecked(explicit)).as("an explicit window is checked before it").isTrue();
        assertThat(RunValidator.problems(explicit, NO_ENV)).containsExactly(RunValidator.windowProblem(explicit, 4096, 64)
                .replace("the model's window 4096 (GET /models)", "--max-model-len 4096"));
        assertThat(RunValidator.windowChecked(explicit.withRequest(r -> r.withCtxTokens(0)
                .withOutputTokens(new io.capstream.loadgen.workload.LengthDistribution(100, 10)))))
                .as("per-request max_tokens: the largest is known after planning").isFalse();
    }
}

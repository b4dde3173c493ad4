package io.capstream.loadgen.run;

import io.capstream.loadgen.client.HttpClientKind;
import io.capstream.loadgen.images.ImageSize;

import io.capstream.loadgen.stop.StopRules;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.SweepStep;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/**
 * The round trip config → RunStarted → config of {@link RunStartedMapping}, for a config with every option set to a
 * value that is not its default: a new component of RunConfig or of a group that the test does not set fails
 * {@link #everyOptionIsSetToANonDefaultValue}, and one that the mapping does not carry fails the round trip.
 */
class RunStartedMappingTest {

    /**
     * Components whose non-default value cannot be part of the one every-option config, with the reason and the
     * test that covers them instead.
     */
    private static final Map<String, String> NOT_IN_THE_FULL_CONFIG = Map.of(
            "RequestShape.thinkingMode", "--no-thinking (set) records the resolved mode 'disabled', whatever"
                    + " --thinking-mode was: see aThinkingModeRoundTripsWithoutNoThinking",
            "TargetConfig.traceHeaders", "on by default: the full config sets it off (--no-trace-headers), which"
                    + " isDefault cannot tell from an unset boolean; the round trip checks it");

    /** What the CLI resolves with no option given (the simulated target aside). */
    private static RunConfig defaults() {
        return new RunConfig(
                new TargetConfig(null, false, "m", null, null, RunConfig.DEFAULT_TIMEOUT_S, false, ApiEndpoint.CHAT,
                        List.of()),
                new LoadShape(RunConfig.DEFAULT_REQUESTS, RunConfig.DEFAULT_CONCURRENCY, 0, ArrivalMode.CLOSED, null,
                        null, null, null),
                new RequestShape(RunConfig.DEFAULT_SHARED_PREFIX_TOKENS, 0, RunConfig.DEFAULT_MAX_TOKENS, 0,
                        RunConfig.DEFAULT_MARGIN, ThinkingMode.DEFAULT, false, null, null, null, null, null, null, null),
                new RunIdentity(null, null, null, 1, 0, null),
                WarmupConfig.DEFAULTS, ReportContext.NONE, ServerMetricsConfig.AUTO);
    }

    /**
     * Every option set, none to its default. The values RunStarted records resolved are given in their resolved form:
     * requests = concurrency = burst = the in-flight cap (so n and the slots are the same numbers either way).
     */
    static RunConfig everyOption() {
        SweepStep step = SweepStep.newBuilder().setSweepId("sweep-1").setStep(2).setAxis("rate").setValue(5.0)
                .setMode("grid").setRepeat(false).setStepsPlanned(4).build();
        return new RunConfig(
                new TargetConfig("http://127.0.0.1:9/v1", true, "qwen3-8b", "vllm", "BENCH_KEY", 30.0, true,
                        ApiEndpoint.COMPLETIONS, List.of(new ExtraHeader("X-Team", "bench")), new TlsConfig(true, null),
                        false, HttpClientKind.VERTX),
                new LoadShape(7, 7, 7, ArrivalMode.GAMMA, 5.0, 7, 12.5, 2.0, 0.25,
                        RateSchedule.parse("0s:2,60s:20,120s:2"), new SteadyStateWindow(10, 70)),
                new RequestShape(512, 256, 8, 32_768, 100, ThinkingMode.DEFAULT, true, "low",
                        new LengthDistribution(300, 20), new LengthDistribution(40, 5), Path.of("chat.jsonl"),
                        Path.of("tokenizer.json"), ExtraBody.parse("{\"top_p\":0.9}"), "salt-1"),
                new RunIdentity("run-1", "a", "w-1", 3, 7, "h100"),
                new WarmupConfig(1.5, 2, true),
                new ReportContext(List.of("ttft_p99<2s"), step, "run-0"),
                new ServerMetricsConfig(ServerMetricsConfig.Mode.URL, "http://127.0.0.1:9/metrics", 250),
                new ConversationShape(new LengthDistribution(3, 1), 2.0, 0.5, "X-Session-Id", Path.of("tools.json"),
                        "required", 32, 0.05, "server"),
                new CancelShape(0.5, 0.1, 0.02),
                new StopRules(0.2, 40, 5, true),
                new PayloadShape(4, List.of(new ImageSize(1024, 1024), new ImageSize(64, 32)),
                        "jpeg", 8));
    }

    /** The plan of {@link #everyOption()}: its window, its request count, {@code --max-tokens} for every request. */
    private static RunPlan plan(RunConfig c) {
        int[] planned = new int[c.load().effectiveRequests()];
        java.util.Arrays.fill(planned, c.request().ctxTokens());
        return new RunPlan(c, c.request().maxModelLen(), ContextPlan.of(planned, null), ApiKey.none());
    }

    private static RunStarted recorded(RunPlan plan) {
        RunStarted rs = RunStartedMapping.toRunStarted(plan).setStartedAt("2026-12-05T00:00:00Z")
                .setStartedAtEpochMs(0).build();
        return SpecificData.get().deepCopy(RunStarted.getClassSchema(), rs); // nothing shared with the config
    }

    @Test
    void everyOptionIsSetToANonDefaultValue() throws Exception {
        List<String> left = new ArrayList<>();
        RunConfig full = everyOption();
        RunConfig dflt = defaults();
        for (RecordComponent group : RunConfig.class.getRecordComponents()) {
            Object g = group.getAccessor().invoke(full);
            Object d = group.getAccessor().invoke(dflt);
            for (RecordComponent c : group.getType().getRecordComponents()) {
                String name = group.getType().getSimpleName() + "." + c.getName();
                Object v = c.getAccessor().invoke(g);
                if (!NOT_IN_THE_FULL_CONFIG.containsKey(name) && isDefault(v, c.getAccessor().invoke(d))) {
                    left.add(name + " = " + v);
                }
            }
        }
        assertThat(left).as("components of RunConfig's groups that the every-option config leaves at a default"
                + " (set them, so that the round trip checks that they are mapped)").isEmpty();
    }

    private static boolean isDefault(Object v, Object dflt) {
        return v == null || v.equals(dflt) || Boolean.FALSE.equals(v)
                || v instanceof Number n && n.doubleValue() == 0 || v instanceof Collection<?> c && c.isEmpty();
    }

    @Test
    void everyOptionRoundTripsThroughRunStarted() {
        RunConfig original = everyOption();
        RunConfig back = RunStartedMapping.toConfig(recorded(plan(original)));
        assertThat(withLocalParts(back, original)).as("config -> RunStarted -> config, with the process-local parts"
                + " (not recorded) put back").isEqualTo(original);
    }

    @Test
    void theHttpClientIsRecorded() {
        assertThat(recorded(plan(everyOption())).getHttpClient()).as("RunStarted.http_client of --http-client vertx")
                .isEqualTo("vertx");
        RunConfig netty = everyOption().withTarget(everyOption().target().withHttpClient(HttpClientKind.DEFAULT));
        assertThat(recorded(plan(netty)).getHttpClient()).as("RunStarted.http_client by default")
                .isEqualTo("netty");
        RunStarted before = recorded(plan(everyOption()));
        before.setHttpClient(null); // an event written before the field existed
        assertThat(RunStartedMapping.toConfig(before).target().httpClient()).as("read back from an older event")
                .isEqualTo(HttpClientKind.DEFAULT);
    }

    @Test
    void theProcessLocalPartsReadBackAsAbsent() {
        RunConfig back = RunStartedMapping.toConfig(recorded(plan(everyOption())));
        assertThat(back.target().simulated()).as("simulated").isFalse();
        assertThat(back.target().apiKeyEnv()).as("API key variable").isNull();
        assertThat(back.target().headers()).as("-H headers (only their names are recorded)").isEmpty();
        assertThat(back.identity().runId()).as("run id").isNull();
        assertThat(back.identity().runIdSuffix()).as("run id suffix").isNull();
        assertThat(back.identity().workerId()).as("worker id").isNull();
        assertThat(back.request().dataset()).as("dataset file").isNull();
        assertThat(back.request().tokenizer()).as("tokenizer file").isNull();
        assertThat(back.conversation().tools()).as("tools file (recorded by name and SHA-256)").isNull();
        assertThat(back.warmup()).as("warm-up").isEqualTo(WarmupConfig.NONE);
        assertThat(back.serverMetrics()).as("server metrics").isEqualTo(ServerMetricsConfig.OFF);
    }

    @Test
    void aThinkingModeRoundTripsWithoutNoThinking() {
        RunConfig full = everyOption();
        RequestShape r = full.request();
        RunConfig enabled = full.withRequest(new RequestShape(r.sharedPrefixTokens(), r.ctxTokens(), r.maxTokens(),
                r.maxModelLen(), r.margin(), ThinkingMode.ENABLED, false, r.reasoningEffort(), r.inputTokens(),
                r.outputTokens(), r.dataset(), r.tokenizer(), r.extraBody(), r.promptSalt()));
        RunStarted rs = recorded(plan(enabled));
        assertThat(rs.getThinkingMode()).as("recorded thinking mode").isEqualTo("enabled");
        assertThat(withLocalParts(RunStartedMapping.toConfig(rs), enabled)).isEqualTo(enabled);
        RunStarted off = recorded(plan(full));
        assertThat(off.getThinkingMode()).as("--no-thinking records the resolved mode").isEqualTo("disabled");
        assertThat(RunStartedMapping.toConfig(off).request().resolvedThinkingMode()).isEqualTo(ThinkingMode.DISABLED);
    }

    /** Before: {@code streamed() ? batch() : effectiveBatch()} unboxed the null batch of every chat run (NPE). */
    @Test
    void aDefaultChatRunHasNoBatch() {
        RunConfig chat = RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"));
        assertThat(recorded(plan(chat)).getBatch()).as("no --batch for a streamed endpoint").isNull();
    }

    @Test
    void oneTurnIsRecordedAsTheSingleTurnRun() {
        RunConfig one = everyOption().withConversation(c -> c.withTurns(new LengthDistribution(1, 0)).withTools(null)
                .withToolAnswers(null, null, null).withThinkTime(null, null).withResponsesState(null));
        RunStarted rs = recorded(plan(one));
        assertThat(rs.getTurnsMean()).as("--turns 1 recorded as absent (capstream.run unchanged)").isNull();
        assertThat(rs.getTurnsStddev()).as("its spread").isNull();
        assertThat(RunStartedMapping.toConfig(rs).conversation().conversations()).as("read back: single requests")
                .isFalse();
    }

    @Test
    void theResolvedValuesAreRecordedResolved() {
        RunConfig closed = everyOption().withLoad(new LoadShape(100, 5, 0, ArrivalMode.CLOSED, null, null, null, 0.0));
        RunStarted rs = recorded(plan(closed));
        assertThat(rs.getRequests()).as("requests: the plan's n").isEqualTo(100);
        assertThat(rs.getConcurrency()).as("closed loop: the slots").isEqualTo(5);
        assertThat(rs.getMaxInFlight()).as("no in-flight cap in a closed loop").isNull();
        assertThat(rs.getRampUpS()).as("a ramp-up of 0 is none").isNull();
        RunConfig burst = everyOption().withLoad(new LoadShape(100, 5, 9, ArrivalMode.CLOSED, null, null, null, null));
        RunStarted b = recorded(plan(burst));
        assertThat(List.of(b.getRequests(), b.getConcurrency(), b.getBurst())).as("--burst replaces both")
                .isEqualTo(List.of(9, 9, 9));
        assertThat(b.getSharedPrefixBurst()).isTrue();
    }

    /** {@code back} with {@code local}'s process-local parts, which RunStarted does not record. */
    private static RunConfig withLocalParts(RunConfig back, RunConfig local) {
        TargetConfig t = back.target();
        RunIdentity id = back.identity();
        RequestShape r = back.request();
        return back
                .withTarget(new TargetConfig(t.baseUrl(), local.target().simulated(), t.model(), t.engine(),
                        local.target().apiKeyEnv(), t.timeoutS(), t.keepAlive(), t.endpoint(), local.target().headers(),
                        new TlsConfig(t.tls().insecure(), local.target().tls().caCert()), t.traceHeaders(),
                        t.httpClient()))
                .withIdentity(new RunIdentity(local.identity().runId(), local.identity().runIdSuffix(),
                        local.identity().workerId(), id.expectedWorkers(), id.seed(), id.gpu()))
                .withRequest(r.withFiles(local.request().dataset(), local.request().tokenizer()))
                .withWarmup(local.warmup())
                .withServerMetrics(local.serverMetrics())
                .withConversation(back.conversation().withTools(local.conversation().tools()));
    }
}

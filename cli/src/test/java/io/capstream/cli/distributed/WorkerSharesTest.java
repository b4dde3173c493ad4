package io.capstream.cli.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.EventFactory;
import io.capstream.loadgen.run.PlanShare;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunPlanner;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Instant;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerSharesTest {

    private static RunConfig config() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:9/v1", "qwen3-8b")
                        .withEngine("vllm").withKeepAlive(true).withTimeoutS(30).withApiKeyEnv("BENCH_KEY")
                        // the request options reach the workers (they were dropped: a worker sent chat with no extra body)
                        .withEndpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS))
                .withLoad(l -> l.withRequests(30).withConcurrency(7).withArrival(ArrivalMode.POISSON).withRateRps(5.0)
                        .withMaxInFlight(7))
                .withRequest(r -> r.withCtxTokens(0).withSharedPrefixTokens(512).withMaxTokens(8).withMaxModelLen(32_768)
                        .withMargin(100).withThinkingMode(ThinkingMode.DEFAULT)
                        .withExtraBody(io.capstream.loadgen.workload.ExtraBody.parse("{\"top_p\":0.9}")))
                .withIdentity(i -> i.withGpu("h100").withSeed(7).withRunId("dist-1").withExpectedWorkers(3))
                .withWarmup(new WarmupConfig(1.5, 2))
                .withReport(x -> x.withSlos(List.of("ttft_p99<2s")))
                .withServerMetrics(ServerMetricsConfig.parse("http://127.0.0.1:9/metrics"));
    }

    @Test
    void aShareRebuildsTheRunConfigAndPlan() {
        RunConfig c = config();
        RunPlan plan = RunPlanner.complete(c, 32_768, ApiKey.none()).join();
        RunStarted rs = (RunStarted) new EventFactory("dist-1", "coordinator-dist-1", plan)
                .runStarted(Instant.ofEpochMilli(1_000)).getPayload();
        WorkerShare ws = WorkerShares.build("dist-1", "coordinator-dist-1", rs, c, new PlanShare(1, 3), 123_456L);
        // through the wire format, as a worker reads it
        var serde = SpecificAvroSerde.forValue(WorkerShare.class, "mock://worker-shares-test");
        WorkerShare read = serde.deserializer().deserialize("capstream.plan.dist-1",
                serde.serializer().serialize("capstream.plan.dist-1", ws));
        assertEquals(ws, read);
        assertEquals(2, read.getConcurrency(), "7 in flight over 3 shares: 3, 2, 2");
        assertEquals(123_456L, read.getStartAtBrokerEpochMs());
        assertEquals("BENCH_KEY", read.getApiKeyEnv());

        RunConfig back = WorkerShares.toConfig(read, "w-1");
        assertEquals(c.load(), back.load());
        assertEquals(c.request(), back.request());
        assertEquals(c.target(), back.target());
        assertEquals(c.warmup(), back.warmup());
        assertEquals(c.serverMetrics(), back.serverMetrics(), "the worker of share 0 scrapes what the run names");
        assertEquals(c.report().slos(), back.report().slos());
        assertEquals("dist-1", back.identity().runId());
        assertEquals("w-1", back.identity().workerId());
        assertEquals(3, back.identity().expectedWorkers());
        assertEquals(7L, back.identity().seed());
        assertEquals("h100", back.identity().gpu());
        assertEquals(List.of(), back.validate(name -> "BENCH_KEY".equals(name) ? "k" : null));
        RunPlan rebuilt = RunPlanner.complete(back, rs.getMaxContextTokens(), ApiKey.none()).join();
        assertArrayEquals(plan.contextPlan().toArray(), rebuilt.contextPlan().toArray());
        assertEquals(new PlanShare(1, 3), WorkerShares.planShare(read));
    }

    @Test
    void noThinkingAndCredentialsInTheUrl() {
        RunConfig c = RunConfig.of(TargetConfig.of("http://user:secret@127.0.0.1:9/v1", "m"))
                .withServerMetrics(ServerMetricsConfig.parse("http://sm:smSecret1@127.0.0.1:9/metrics"))
                .withLoad(l -> l.withRequests(4).withConcurrency(4))
                .withRequest(r -> r.withCtxTokens(256).withMaxTokens(8).withMaxModelLen(4096).withNoThinking(true))
                .withIdentity(i -> i.withRunId("r"));
        RunPlan plan = RunPlanner.complete(c, 4096, ApiKey.none()).join();
        RunStarted rs = (RunStarted) new EventFactory("r", "c", plan).runStarted(Instant.EPOCH).getPayload();
        WorkerShare ws = WorkerShares.build("r", "c", rs, c, new PlanShare(0, 2), 0);
        assertEquals("http://127.0.0.1:9/v1", ws.getBaseUrl(), "the password never goes into a plan");
        assertEquals("http://127.0.0.1:9/metrics", ws.getServerMetrics(), "nor the server metrics' password");
        assertNull(ws.getApiKeyEnv());
        RunConfig back = WorkerShares.toConfig(ws, "w");
        assertEquals(ThinkingMode.DISABLED, back.request().resolvedThinkingMode());
        assertEquals(c.load(), back.load());
        assertEquals(2, ws.getConcurrency());
    }

    /**
     * --input-tokens and --output-tokens reach the workers: the worker rebuilds the coordinator's per-request prompt
     * lengths and max_tokens (they were dropped: a worker planned the reference's contexts and sent the largest
     * max_tokens with every request).
     */
    @Test
    void theRequestLengthDistributionsReachTheWorkers() {
        RunConfig base = config();
        io.capstream.loadgen.run.RequestShape r = base.request();
        RunConfig c = base.withRequest(new io.capstream.loadgen.run.RequestShape(r.sharedPrefixTokens(), r.ctxTokens(),
                r.maxTokens(), r.maxModelLen(), r.margin(), r.thinkingMode(), r.noThinking(), r.reasoningEffort(),
                new io.capstream.loadgen.workload.LengthDistribution(300, 40),
                new io.capstream.loadgen.workload.LengthDistribution(24, 6), null, null, r.extraBody(), r.promptSalt()));
        RunPlan plan = RunPlanner.complete(c, 32_768, ApiKey.none()).join();
        RunStarted rs = (RunStarted) new EventFactory("dist-1", "coordinator-dist-1", plan)
                .runStarted(Instant.ofEpochMilli(1_000)).getPayload();
        WorkerShare ws = WorkerShares.build("dist-1", "coordinator-dist-1", rs, c, new PlanShare(1, 3), 0);

        RunConfig back = WorkerShares.toConfig(ws, "w-1");
        assertThat(back.request().inputTokens()).as("--input-tokens on the worker")
                .isEqualTo(new io.capstream.loadgen.workload.LengthDistribution(300, 40));
        assertThat(back.request().outputTokens()).as("--output-tokens on the worker")
                .isEqualTo(new io.capstream.loadgen.workload.LengthDistribution(24, 6));
        RunPlan rebuilt = RunPlanner.complete(back, rs.getMaxContextTokens(), ApiKey.none()).join();
        assertThat(rebuilt.contextPlan().toArray()).as("the worker's planned contexts")
                .isEqualTo(plan.contextPlan().toArray());
        int[] sent = new int[plan.requests()];
        int[] coordinator = new int[plan.requests()];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = rebuilt.requestPlan().maxTokens(i, back.request().maxTokens());
            coordinator[i] = plan.requestPlan().maxTokens(i, c.request().maxTokens());
        }
        assertThat(sent).as("the worker's max_tokens per request").isEqualTo(coordinator);
    }
}

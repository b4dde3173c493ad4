package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 33 item 4: the warm-up through the run's own driver and pipeline, against the loopback server. */
class PipelineWarmupTest {
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** What the warm-up's self-check was told. */
    static final class Seen implements RequestPipeline.Observer {
        final AtomicInteger inFlightMax = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        final ConcurrentHashMap<Integer, Integer> chunkCounts = new ConcurrentHashMap<>();

        @Override
        public void inFlight(int n) {
            inFlightMax.accumulateAndGet(n, Math::max);
        }

        @Override
        public void request(long e2eNs, int chunks) {
            requests.incrementAndGet();
            chunkCounts.merge(chunks, 1, Integer::sum);
        }
    }

    private static int warm(int slots, Seen seen, boolean stopped) throws Exception {
        RunPlan plan = RunPlanner.complete(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1",
                        SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(3))
                .withRequest(r -> r.withMaxTokens(4).withCtxTokens(64).withSharedPrefixTokens(0)), 4096,
                ApiKey.none()).get();
        RunConfig c = plan.config();
        BodySource bodies = new BodySource(new PromptBuilder(0, "s"), new RequestBodyBuilder(c.target().model(),
                c.request().maxTokens(), c.request().resolvedThinkingMode(), c.request().reasoningEffort(),
                c.target().endpoint(), c.request().extraBody()), plan.requestPlan(), c.request().maxTokens());
        List<Context> contexts = List.of(((VertxInternal) vertx).createEventLoopContext());
        ClientConfig run = new ClientConfig("http://127.0.0.1:1/v1", 5, true, 8, ApiKey.none());
        return PipelineWarmup.run(vertx, contexts, plan, bodies, run, slots, seen, () -> stopped, 60,
                new ManualCapClock()).await(120, TimeUnit.SECONDS);
    }

    @Test
    void sendsItsRequestsThroughTheRunsClosedLoopAtTheRunsConcurrencyCappedAndEveryOneStreams() throws Exception {
        Seen seen = new Seen();
        int ended = warm(8, seen, false);
        assertThat(ended).as("requests that ended").isEqualTo(PipelineWarmup.REQUESTS);
        assertThat(seen.requests.get()).as("requests the warm-up's self-check was told of")
                .isEqualTo(PipelineWarmup.REQUESTS);
        assertThat(seen.inFlightMax.get()).as("most in flight at once (the run's 8 slots)").isEqualTo(8);
        // the loopback server streams 16 content chunks, and 2 reasoning chunks before them every 4th request
        assertThat(seen.chunkCounts).as("output chunks per request -> requests").containsOnlyKeys(16, 18);
    }

    @Test
    void aRunAboveItsSlotCapWarmsAtTheCap() throws Exception {
        Seen seen = new Seen();
        warm(500, seen, false);
        assertThat(seen.inFlightMax.get()).as("most in flight at once").isEqualTo(PipelineWarmup.SLOTS);
    }

    /**
     * The warm-up's launcher and sender are the run's own classes: a second implementation loaded at T0 made the JIT
     * discard the warm-up's compiled {@code ClosedLoop.takeNext} and {@code RequestPipeline.sendBuilt} at the run's
     * start (seen with {@code -XX:+PrintCompilation}: "made not entrant" as the run started).
     */
    @Test
    void theWarmupsLauncherAndSenderAreOfTheRunsClasses() throws Exception {
        RunPlan plan = RunPlanner.complete(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1",
                SimConfig.defaults().modelId())).withLoad(l -> l.withRequests(4)), 4096, ApiKey.none()).get();
        RequestPipeline p = new RequestPipeline(plan, 4, null, (RequestPipeline.Sender) null, null, 0, null, null,
                null, null);
        assertThat(PipelineWiring.launcher(p, null, 3).getClass()).as("the warm-up's launcher class")
                .isSameAs(PipelineWiring.launcher(p, null, Integer.MAX_VALUE).getClass())
                .isSameAs(PipelineWiring.launcher(p, new PlanShare(1, 2), Integer.MAX_VALUE).getClass());
        try (io.capstream.loadgen.client.StreamingClient a = new io.capstream.loadgen.client.StreamingClient(vertx,
                new ClientConfig("http://127.0.0.1:1/v1", 5, true, 8, ApiKey.none()));
             io.capstream.loadgen.client.StreamingClient b = new io.capstream.loadgen.client.StreamingClient(vertx,
                     new ClientConfig("http://127.0.0.1:2/v1", 5, false, 8, ApiKey.none()))) {
            assertThat(PipelineWiring.sender(a).getClass()).as("the sender class")
                    .isSameAs(PipelineWiring.sender(b).getClass());
        }
    }

    @Test
    void aStoppedRunSendsNothing() throws Exception {
        Seen seen = new Seen();
        assertThat(warm(8, seen, true)).as("requests of a stopped run's warm-up").isZero();
        assertThat(seen.requests.get()).as("requests told").isZero();
    }
}

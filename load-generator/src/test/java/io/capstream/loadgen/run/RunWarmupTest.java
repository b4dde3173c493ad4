package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The run's warm-ups alone: the target warm-up against the simulated engine and against nothing. */
class RunWarmupTest {
    static Vertx vertx;
    static SimEngine sim;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(1).tickMs(1).build())
                .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static WarmupResult warm(String baseUrl, int targetRequests, RunControl control, List<String> notices)
            throws Exception {
        return warm(TargetConfig.of(baseUrl, SimConfig.defaults().modelId()), targetRequests, control, notices);
    }

    private static WarmupResult warm(TargetConfig targetConfig, int targetRequests, RunControl control,
                                     List<String> notices) throws Exception {
        return warm(targetConfig, new WarmupConfig(0, targetRequests), control, notices, new ManualCapClock());
    }

    private static WarmupResult warm(TargetConfig targetConfig, WarmupConfig warmup, RunControl control,
                                     List<String> notices, io.capstream.schemas.time.CapClock clock) throws Exception {
        return warm(targetConfig, warmup, control, notices, clock, false);
    }

    private static WarmupResult warm(TargetConfig targetConfig, WarmupConfig warmup, RunControl control,
                                     List<String> notices, io.capstream.schemas.time.CapClock clock,
                                     boolean conversations) throws Exception {
        String baseUrl = targetConfig.baseUrl();
        RunConfig config = RunConfig.of(targetConfig);
        if (conversations) {
            config = config.withConversation(v -> v.withTurns(new io.capstream.loadgen.workload.LengthDistribution(2,
                    0)));
        }
        RunPlan plan = RunPlanner.complete(config
                .withWarmup(warmup)
                .withLoad(l -> l.withRequests(2))
                .withRequest(r -> r.withMaxTokens(4).withCtxTokens(64).withSharedPrefixTokens(0)), 4096, ApiKey.none()).get();
        RunConfig c = plan.config();
        BodySource bodies = new BodySource(new PromptBuilder(0, "s"), new RequestBodyBuilder(c.target().model(),
                c.request().maxTokens(), c.request().resolvedThinkingMode(), c.request().reasoningEffort(),
                c.target().endpoint(), c.request().extraBody()), plan.requestPlan(), c.request().maxTokens());
        RunListener l = new RunListener() {
            @Override
            public void onNotice(String line) {
                notices.add(line);
            }
        };
        ClientConfig cc = new ClientConfig(baseUrl, 5, true, 8, ApiKey.none());
        List<Context> contexts = List.of(((VertxInternal) vertx).createEventLoopContext());
        try (StreamingClient client = new StreamingClient(vertx, cc)) {
            return new RunWarmup(vertx, plan, bodies, bodies, control, new GuardedListener(l, SecretMask.NONE),
                    clock).run(contexts, cc, client, 2).await(120, TimeUnit.SECONDS);
        }
    }

    @Test
    void theTargetWarmupSendsAndDiscardsItsRequestsAndSaysSo() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        WarmupResult w = warm(sim.baseUrl(), 3, new RunControl(), notices);
        assertThat(w.targetRequests()).as("target warm-up requests").isEqualTo(3);
        assertThat(w.targetFailed()).as("failed").isZero();
        assertThat(w.loopbackRequests()).as("no client warm-up asked for").isZero();
        assertThat(notices).as("notices")
                .containsExactly("3 warm-up request(s) sent to the target and discarded (0 failed)");
    }

    @Test
    void aTargetWarmupThatAllFailedWarnsWithTheFirstErrorAndTheRunGoesOn() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        WarmupResult w = warm("http://127.0.0.1:1/v1", 2, new RunControl(), notices);
        assertThat(w.targetFailed()).as("failed").isEqualTo(2);
        assertThat(notices).as("notices").hasSize(2);
        assertThat(notices.get(1)).as("the warning").startsWith("warning: every warm-up request failed (first: ")
                .endsWith("); the run goes on");
    }

    /**
     * Issue 33 item 4: the client warm-up ends with requests through the run's own driver and pipeline, counted in
     * its loopback requests and named in its notice (bounded by the system clock: 1 s of loopback batches).
     */
    @Test
    void theClientWarmupEndsWithRequestsThroughTheRunsDriverAndSaysHowMany() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        WarmupResult w = warm(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()), new WarmupConfig(1, 0),
                new RunControl(), notices, io.capstream.schemas.time.CapClock.system());
        assertThat(notices).as("notices").hasSize(1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("client warm-up: ([\\d,]+) loopback requests in"
                + " [\\d.]+ s \\(\\d+ -> \\d+ us per request; the last ([\\d,]+) through the run's driver\\)")
                .matcher(notices.get(0));
        assertThat(m.matches()).as("the notice: %s", notices.get(0)).isTrue();
        int total = Integer.parseInt(m.group(1).replace(",", ""));
        int driver = Integer.parseInt(m.group(2).replace(",", ""));
        assertThat(driver).as("requests through the run's driver").isBetween(1, PipelineWarmup.REQUESTS);
        assertThat(w.loopbackRequests()).as("loopback requests, the driver's included").isEqualTo(total)
                .isGreaterThan(driver);
    }

    /** A run that sends nothing through its driver before T0 (a conversation run) does not say it sent 0. */
    @Test
    void aConversationRunsNoticeNamesNoDriverRequests() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        WarmupResult w = warm(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()), new WarmupConfig(1, 0),
                new RunControl(), notices, io.capstream.schemas.time.CapClock.system(), true);
        assertThat(w.loopbackRequests()).as("loopback requests").isPositive();
        assertThat(notices).as("notices").hasSize(1);
        assertThat(notices.get(0)).as("the notice").matches(
                "client warm-up: [\\d,]+ loopback requests in [\\d.]+ s \\(\\d+ -> \\d+ us per request\\)");
    }

    @Test
    void aStopRequestSkipsTheWarmups() throws Exception {
        RunControl stopped = new RunControl();
        stopped.requestStop();
        List<String> notices = new CopyOnWriteArrayList<>();
        WarmupResult w = warm(sim.baseUrl(), 3, stopped, notices);
        assertThat(w).as("warm-up of a stopped run").isEqualTo(WarmupResult.NONE);
        assertThat(notices).as("notices").isEmpty();
    }

    /** Issue 33 (fresh-user pass): warm-up requests carry the run's trace headers, with a warm-up request id. */
    @Test
    void theTargetWarmupCarriesTraceHeadersWithAWarmupRequestIdUnlessTurnedOff() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        io.vertx.core.http.HttpServer server = vertx.createHttpServer().requestHandler(req -> {
            seen.add(req.getHeader("X-Request-Id") + " " + req.getHeader("traceparent"));
            req.response().setStatusCode(500).end();
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            String url = "http://127.0.0.1:" + server.actualPort() + "/v1";
            warm(url, 2, new RunControl(), new CopyOnWriteArrayList<>());
            assertThat(seen).as("X-Request-Id and traceparent of the warm-up requests").hasSize(2)
                    .allMatch(h -> h.matches("benchmark-\\d{8}T\\d{6}Z-warmup-[01] 00-[0-9a-f]{32}-[0-9a-f]{16}-01"))
                    .anyMatch(h -> h.contains("-warmup-0 ")).anyMatch(h -> h.contains("-warmup-1 "));
            seen.clear();
            warm(TargetConfig.of(url, SimConfig.defaults().modelId()).withTraceHeaders(false), 1, new RunControl(),
                    new CopyOnWriteArrayList<>());
            assertThat(seen).as("headers with --no-trace-headers").containsExactly("null null");
        } finally {
            server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}

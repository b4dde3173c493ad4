package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** End-to-end runs against an in-JVM fake endpoint, events collected in memory. */
class LoadGeneratorTest {
    static Vertx vertx;
    static HttpServer server;
    static String base;
    static final AtomicInteger active = new AtomicInteger();
    static final AtomicInteger maxActive = new AtomicInteger();
    static final AtomicInteger chatRequests = new AtomicInteger();
    static final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> {
            if (req.path().endsWith("/models")) {
                req.response().putHeader("Content-Type", "application/json")
                        .end("{\"data\":[{\"id\":\"other\",\"max_model_len\":999},{\"id\":\"fake\",\"max_model_len\":4096}]}");
                return;
            }
            req.body().onSuccess(b -> {
                chatRequests.incrementAndGet();
                JsonNode body;
                try {
                    body = JSON.readTree(b.getBytes());
                } catch (Exception e) {
                    req.response().setStatusCode(400).end();
                    return;
                }
                bodies.add(body);
                String prompt = body.get("messages").get(0).get("content").asText();
                int idx = Integer.parseInt(prompt.substring(prompt.lastIndexOf("# request ") + 10, prompt.lastIndexOf(':')));
                int a = active.incrementAndGet();
                maxActive.accumulateAndGet(a, Math::max);
                var r = req.response().setChunked(true);
                if (idx % 5 == 4 && body.get("model").asText().equals("fake-failing")) {
                    active.decrementAndGet();
                    r.setStatusCode(503).end();
                    return;
                }
                vertx.setTimer(40, t -> {
                    r.write("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n");
                    vertx.setTimer(10, t2 -> {
                        r.write("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":" + prompt.length() / 3
                                + ",\"completion_tokens\":2}}\n\ndata: [DONE]\n\n");
                        active.decrementAndGet();
                        r.end();
                    });
                });
            });
        });
        int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        base = "http://127.0.0.1:" + port + "/v1";
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void reset() {
        maxActive.set(0);
        chatRequests.set(0);
        bodies.clear();
    }

    /** @return a closed-loop run of small requests (64-token contexts, no shared prefix, 8192-token window) */
    private static RunConfig small(int requests, int concurrency) {
        return RunConfig.of(TargetConfig.of(base, "fake"))
                .withLoad(l -> l.withRequests(requests).withConcurrency(concurrency))
                .withRequest(r -> r.withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(8192));
    }

    private static RunOutcome run(RunConfig c, InMemoryEventSink sink, RunListener l) throws Exception {
        return new LoadGenerator(vertx, Map.of("KEY", "sk-secret")::get).run(c, sink, l).get(60, TimeUnit.SECONDS);
    }

    @Test
    void closedLoopRunEmitsEveryEventAndRespectsConcurrency() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        List<RunProgress> progress = new CopyOnWriteArrayList<>();
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withTarget(t -> t.withApiKeyEnv("KEY"))
                .withLoad(l -> l.withRequests(12).withConcurrency(3))
                .withRequest(r -> r.withCtxTokens(512).withSharedPrefixTokens(100).withMaxTokens(16))
                .withIdentity(i -> i.withRunIdSuffix("t1"))
                .withReport(x -> x.withSlos(List.of("ttft_p95_ms<=300", "error_rate<=0.01")));
        RunOutcome o = run(c, sink, new RunListener() {
            @Override
            public void onProgress(RunProgress p) {
                progress.add(p);
            }
        });
        assertEquals(12, o.completed());
        assertEquals(0, o.failed());
        assertEquals(0, o.exitCode());
        assertFalse(o.interrupted());
        assertThat(o.runId()).matches("benchmark-\\d{8}T\\d{6}Z-t1");
        assertEquals(3, maxActive.get(), "at most `concurrency` requests in flight, and all slots used");
        assertEquals(3, progress.stream().mapToInt(RunProgress::inFlight).max().orElse(-1),
                "a slot's next request is counted in flight when the progress of the one before it is reported");
        assertEquals(0, progress.stream().filter(p -> p.done() == 12).findFirst().orElseThrow().inFlight(),
                "nothing in flight after the last request");
        List<RunEvent> ev = sink.events();
        assertEquals(14, ev.size());
        assertInstanceOf(RunStarted.class, ev.get(0).getPayload());
        assertInstanceOf(RunFinished.class, ev.get(13).getPayload());
        RunStarted rs = (RunStarted) ev.get(0).getPayload();
        assertEquals(12, rs.getRequests());
        assertEquals(3, rs.getConcurrency());
        assertEquals(4096, rs.getMaxContextTokens(), "probed from /models, matching id");
        assertEquals(512, rs.getContextTokens());
        assertEquals(12, rs.getPlannedContextTokens().size());
        assertEquals("closed", rs.getArrival());
        assertEquals(100, rs.getSharedPrefixTokens());
        assertEquals(List.of("ttft_p95_ms<=300", "error_rate<=0.01"), rs.getSlos(), "SLOs are carried to the report");
        assertNull(rs.getSweep(), "a single run is no sweep step");
        assertThat(ev.toString()).as("the API key never appears in events").doesNotContain("sk-secret");
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
        done.sort(Comparator.comparingInt(RequestCompleted::getRequestIndex));
        for (int i = 0; i < 12; i++) {
            RequestCompleted r = done.get(i);
            assertEquals(i, r.getRequestIndex());
            assertEquals(512, r.getPlannedContextTokens());
            assertEquals(base, r.getTarget());
            assertEquals("fake", r.getModel());
            assertTrue(r.getTtftNs() >= 35_000_000L, "server waits 40 ms: " + r.getTtftNs());
            assertTrue(r.getE2eNs() >= 45_000_000L && r.getE2eNs() >= r.getTtftNs(), "e2e " + r.getE2eNs());
            assertEquals(r.getTtfoNs(), r.getTtftNs());
            assertEquals(2L, r.getCompletionTokens());
            assertEquals(512L, r.getPromptTokens());
            assertEquals("usage", r.getOutputTokenSource());
            assertEquals(1, r.getContentChunks());
            assertEquals(List.of(), r.getOutputChunkGapsUs(), "one output chunk: no gap");
            assertEquals(0, r.getOutputChunkGapsDropped());
            assertEquals(200, r.getHttpStatus());
            assertTrue(r.getClientQueueNs() >= 0 && r.getStartNs() >= r.getScheduledStartNs());
            assertTrue(r.getCompletedAtEpochMs() > 0);
        }
        // requests start in index order: index 3 starts only after one of 0, 1, 2 ended
        long firstEnd = Math.min(done.get(0).getStartNs() + done.get(0).getE2eNs(),
                Math.min(done.get(1).getStartNs() + done.get(1).getE2eNs(), done.get(2).getStartNs() + done.get(2).getE2eNs()));
        assertTrue(done.get(3).getStartNs() >= firstEnd - 1_000_000L);
        // (no check that scheduled starts rise with the index: a request's scheduled start is when its slot was freed,
        // and a slot freed earlier on a busy event loop may take its next index after one freed later elsewhere; the
        // 2 ms tolerance that was here failed on a loaded 2-core CI machine)
        RunFinished rf = (RunFinished) ev.get(13).getPayload();
        assertEquals(12, rf.getRequestsSent());
        assertEquals(0, rf.getEventsUndelivered());
        assertEquals(o.wallClockNs(), rf.getWallClockNs());
        assertTrue(rf.getWallClockNs() >= 4 * 50_000_000L, "4 waves of ~50 ms");
        assertEquals(12, progress.size());
        assertEquals(12, progress.stream().mapToInt(RunProgress::done).max().getAsInt());
        assertTrue(progress.get(11).ttftP50Ms() > 30, "running TTFT p50 " + progress.get(11).ttftP50Ms());
        JsonNode body = bodies.get(0);
        assertEquals(16, body.get("max_tokens").asInt());
        assertEquals(1536, body.get("messages").get(0).get("content").asText().length(), "3 chars per planned token");
    }

    @Test
    void failuresAreEventsAndNeverAbortTheRun() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = small(10, 4).withTarget(t -> t.withModel("fake-failing"));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(8, o.completed());
        assertEquals(2, o.failed());
        assertEquals(1, o.exitCode());
        List<RequestFailed> failed = sink.payloads(RequestFailed.class);
        failed.sort(Comparator.comparingInt(RequestFailed::getRequestIndex));
        assertEquals(List.of(4, 9), failed.stream().map(RequestFailed::getRequestIndex).toList());
        assertEquals("HTTPError", failed.get(0).getErrorType());
        assertEquals("HTTP Error 503: Service Unavailable", failed.get(0).getErrorMessage());
        assertEquals(503, failed.get(0).getHttpStatus());
        assertEquals(8192, ((RunStarted) sink.events().get(0).getPayload()).getMaxContextTokens());
    }

    @Test
    void usageErrorsFailBeforeAnyRequest() {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withTarget(t -> t.withApiKeyEnv("MISSING"))
                .withLoad(l -> l.withRequests(0));
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> new LoadGenerator(vertx, k -> null).run(c, sink, RunListener.NONE).get(10, TimeUnit.SECONDS));
        UsageException u = assertInstanceOf(UsageException.class, e.getCause());
        assertEquals(2, u.problems().size(), u.getMessage());
        assertEquals(0, chatRequests.get());
        assertThat(sink.events()).isEmpty();
    }

    @Test
    void probedWindowTooSmallIsUsageError() {
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withRequest(r -> r.withMaxTokens(3000).withMargin(1100));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> new LoadGenerator(vertx).prepare(c).join());
        assertInstanceOf(UsageException.class, e instanceof CompletionException ? e.getCause() : e);
        assertThat(e.getCause().getMessage()).contains("must exceed");
    }

    @Test
    void sampledPlanIsClampedToProbedCap() throws Exception {
        RunPlan p = new LoadGenerator(vertx).prepare(RunConfig.of(TargetConfig.of(base, "fake")).withLoad(l -> l.withRequests(12)))
                .get(10, TimeUnit.SECONDS);
        assertEquals(4096, p.maxModelLen());
        assertEquals(4096 - 64 - 1024, p.cap());
        assertEquals(Map.of("3008", 12), p.contextPlan().distribution());
    }

    @Test
    void openLoopConstantRateWithMaxInFlightRecordsQueueTime() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        // 100 req/s but at most 2 in flight, each ~50 ms: requests queue in the client
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withLoad(l -> l.withRequests(10).withArrival(ArrivalMode.CONSTANT).withRateRps(100.0).withMaxInFlight(2))
                .withRequest(r -> r.withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(8192));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(10, o.completed());
        assertEquals(2, maxActive.get());
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
        done.sort(Comparator.comparingInt(RequestCompleted::getRequestIndex));
        for (int i = 0; i < 10; i++) {
            assertEquals(i * 10_000_000L, done.get(i).getScheduledStartNs(), "k / rate");
        }
        assertTrue(done.get(9).getClientQueueNs() > 100_000_000L, "late requests waited: " + done.get(9).getClientQueueNs());
        assertEquals(done.get(9).getStartNs() - done.get(9).getScheduledStartNs(), done.get(9).getClientQueueNs());
        RunStarted rs = (RunStarted) sink.events().get(0).getPayload();
        assertEquals("constant", rs.getArrival());
        assertEquals(100.0, rs.getRateRps());
        assertEquals(2, rs.getMaxInFlight());
    }

    @Test
    void openLoopPoissonWithDurationPlansArrivalsWithinIt() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withLoad(l -> l.withArrival(ArrivalMode.POISSON).withRateRps(40.0).withMaxInFlight(50).withDurationS(0.5))
                .withRequest(r -> r.withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(8192))
                .withIdentity(i -> i.withSeed(3));
        int expected = io.capstream.loadgen.arrival.ArrivalSchedule.countWithin(ArrivalMode.POISSON, 40.0, 3, 500_000_000L, 100_000);
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(expected, o.requestsPlanned());
        assertEquals(expected, o.completed());
        assertTrue(expected > 5 && expected < 50, "about 20 arrivals: " + expected);
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
        assertThat(done).allMatch(r -> r.getScheduledStartNs() < 500_000_000L);
    }

    @Test
    void closedLoopDurationStopsStartingRequests() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = small(1000, 2).withLoad(l -> l.withDurationS(0.3));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertTrue(o.requestsSent() >= 2 && o.requestsSent() <= 14, "2 slots x (300 ms / 50 ms + 1) at most: " + o.requestsSent());
        assertFalse(o.interrupted(), "ending at the duration is the plan, not an interruption");
        assertEquals(0, o.exitCode());
        RunFinished rf = sink.payloads(RunFinished.class).get(0);
        assertEquals(o.requestsSent(), rf.getRequestsSent());
        assertFalse(rf.getInterrupted());
        assertEquals(0.3, sink.payloads(RunStarted.class).get(0).getDurationS());
        assertEquals(1000, o.requestsPlanned());
    }

    @Test
    void closedLoopRampUpStartsTheSlotsEvenlyOverIt() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        // 8 slots over 35 ms: slot k starts at k x 4.375 ms, before the first request ends (the fake server
        // answers in ~50 ms), so request k is slot k's first request.
        RunConfig c = small(8, 8).withLoad(l -> l.withRampUpS(0.035));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(0, o.exitCode());
        assertEquals(0.035, sink.payloads(RunStarted.class).get(0).getRampUpS());
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class).stream()
                .sorted(java.util.Comparator.comparingInt(RequestCompleted::getRequestIndex)).toList();
        assertEquals(8, done.size());
        for (int k = 0; k < 8; k++) {
            long scheduled = done.get(k).getScheduledStartNs();
            // timers have 1 ms granularity and never fire early
            assertTrue(scheduled >= (long) (k * 4.375) * 1_000_000L - 1_000_000L,
                    "request " + k + " scheduled at " + scheduled / 1e6 + " ms");
            assertTrue(scheduled < 400_000_000L, "request " + k + " scheduled at " + scheduled / 1e6 + " ms");
        }
        assertEquals(List.of("--ramp-up applies to the closed loop (--arrival closed), not to --arrival poisson"),
                RunConfig.of(TargetConfig.of(base, "fake"))
                        .withLoad(l -> l.withArrival(io.capstream.loadgen.arrival.ArrivalMode.POISSON).withRateRps(5.0).withRampUpS(1.0)).validate(k -> null));
        assertEquals(List.of("--ramp-up must be a duration >= 0, got -1.0 s"),
                RunConfig.of(TargetConfig.of(base, "fake")).withLoad(l -> l.withRampUpS(-1.0)).validate(k -> null));
    }

    @Test
    void runEndsWhenItsWorkIsDoneNotWhenTheRampUpWouldHaveEnded() throws Exception {
        // slot 1 of 2 would start 30 min after T0; slot 0 runs all 4 requests first. The run used to
        // end only when slot 1's timer fired (and `run` here gives up after 60 s).
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = small(4, 2).withLoad(l -> l.withRampUpS(3600.0));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(4, o.requestsSent());
        assertEquals(4, sink.payloads(RequestCompleted.class).size());
        assertFalse(o.interrupted());

        // the same when the duration ends first
        InMemoryEventSink timed = new InMemoryEventSink();
        RunConfig d = small(1000, 4).withLoad(l -> l.withRampUpS(3600.0).withDurationS(0.3));
        RunOutcome od = run(d, timed, RunListener.NONE);
        assertTrue(od.requestsSent() >= 1 && od.requestsSent() <= 8, "one slot x (300 ms / 50 ms + 1): " + od.requestsSent());
        assertEquals(od.requestsSent(), timed.payloads(RunFinished.class).get(0).getRequestsSent());
    }

    @Test
    void stopRequestInterrupts() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        LoadGenerator g = new LoadGenerator(vertx);
        RunControl control = new RunControl();
        RunConfig c = small(200, 2);
        RunPlan plan = g.prepare(c).get(10, TimeUnit.SECONDS);
        RunOutcome o = g.run(plan, sink, new RunListener() {
            @Override
            public void onProgress(RunProgress p) {
                if (p.done() >= 4) {
                    control.requestStop();
                }
            }
        }, control).get(30, TimeUnit.SECONDS);
        assertTrue(o.interrupted());
        assertTrue(o.requestsSent() >= 4 && o.requestsSent() <= 8, "sent " + o.requestsSent());
        assertNull(null);
    }

    @Test
    void largePromptsAreBuiltOffTheEventLoopAndMatchTheSpecVector() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withLoad(l -> l.withRequests(2).withConcurrency(2))
                .withRequest(r -> r.withCtxTokens(32768).withMaxModelLen(65536));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(2, o.completed());
        String p0 = bodies.stream().map(b -> b.get("messages").get(0).get("content").asText())
                .filter(p -> p.endsWith("# request 0: summarize the above in one line.")).findFirst().orElseThrow();
        assertEquals(98304, p0.length());
        assertEquals("4923d36fb4e657063b8519a25a95474a13a07cea9589d4a468de3d602f8a988e",
                io.capstream.loadgen.workload.PromptBuilderTest.sha256(p0), "spec §3.3 vector, end to end");
    }

    @Test
    void contextTooSmallForThePromptFailsEachRequestWithoutSendingIt() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        // the sampled plan clamped to the cap of 15 (a fixed --ctx-tokens above the cap is a usage error)
        RunConfig c = RunConfig.of(TargetConfig.of(base, "fake"))
                .withLoad(l -> l.withRequests(3).withConcurrency(2))
                .withRequest(r -> r.withMaxModelLen(16).withMaxTokens(1).withMargin(0).withSharedPrefixTokens(0));
        RunOutcome o = run(c, sink, RunListener.NONE);
        assertEquals(3, o.failed());
        assertEquals(0, chatRequests.get());
        for (RequestFailed f : sink.payloads(RequestFailed.class)) {
            assertEquals("ValueError", f.getErrorType());
            assertEquals("context target is too small for the benchmark prompt envelope", f.getErrorMessage());
            assertEquals(15, f.getPlannedContextTokens());
        }
    }

    @Test
    void warmUpRequestsReachTheTargetButNeverTheEventsAndTheSelfCheckIsInRunFinished() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        List<String> notices = new CopyOnWriteArrayList<>();
        RunConfig c = small(6, 2).withWarmup(new WarmupConfig(0.3, 3));
        RunOutcome o = run(c, sink, new RunListener() {
            @Override
            public void onNotice(String line) {
                notices.add(line);
            }
        });
        assertEquals(6, o.completed());
        assertEquals(9, chatRequests.get(), "6 measured + 3 warm-up requests reached the target");
        List<Integer> indices = new ArrayList<>();
        for (JsonNode b : bodies) {
            String prompt = b.get("messages").get(0).get("content").asText();
            indices.add(Integer.parseInt(prompt.substring(prompt.lastIndexOf("# request ") + 10, prompt.lastIndexOf(':'))));
        }
        indices.sort(Integer::compare);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8), indices, "warm-up prompts carry the indices after the plan's");
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
        assertEquals(6, done.size(), "no event for a warm-up request");
        assertThat(done).allMatch(r -> r.getRequestIndex() < 6);
        RunFinished rf = sink.payloads(RunFinished.class).get(0);
        ClientCheck cc = rf.getClientCheck();
        assertEquals(cc, o.clientCheck());
        assertEquals(3, cc.getWarmupTargetRequests());
        assertEquals(0, cc.getWarmupTargetFailed());
        assertTrue(cc.getWarmupLoopbackRequests() >= 100, "at least one loopback batch: " + cc.getWarmupLoopbackRequests());
        assertTrue(cc.getWarmupLoopbackMs() > 0);
        assertTrue(cc.getDelaySamples() > 0, "the delay probe ran during the run");
        assertThat(cc.getDelayHistogram()).as("the raw delay histogram the aggregator computes from").isNotNull();
        assertThat(cc.getDelayP99Ms()).as("delay p99: the aggregator's").isNull();
        assertEquals(2, cc.getInFlightMax());
        assertTrue(cc.getInFlightMean() > 1.0 && cc.getInFlightMean() <= 2.0, "achieved concurrency " + cc.getInFlightMean());
        assertEquals(6, cc.getStreamChunks(), "one content chunk per request");
        assertEquals("live", cc.getEventDelivery());
        assertThat(cc.getWarnings()).as("warnings: the aggregator's").isEmpty();
        assertThat(notices).anyMatch(n -> n.startsWith("client warm-up: "));
        assertThat(notices).contains("3 warm-up request(s) sent to the target and discarded (0 failed)");
    }

    @Test
    void withoutWarmUpOnlyThePlannedRequestsAreSent() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = run(small(4, 2), sink, null);
        assertEquals(4, o.completed());
        assertEquals(4, chatRequests.get());
        ClientCheck cc = sink.payloads(RunFinished.class).get(0).getClientCheck();
        assertEquals(0, cc.getWarmupLoopbackRequests());
        assertEquals(0, cc.getWarmupTargetRequests());
        assertNull(cc.getWarmupLoopbackFirstUsPerRequest());
    }

    @Test
    void deferredEventsReachTheSinkOnlyAfterTheLastRequest() throws Exception {
        InMemoryEventSink inner = new InMemoryEventSink();
        io.capstream.loadgen.emit.DeferredEventSink sink = new io.capstream.loadgen.emit.DeferredEventSink(inner);
        List<Integer> seenDuringRun = new CopyOnWriteArrayList<>();
        List<String> calls = new CopyOnWriteArrayList<>();
        RunOutcome o = new LoadGenerator(vertx).run(small(5, 2), sink, new RunListener() {
            @Override
            public void onProgress(RunProgress p) {
                seenDuringRun.add(inner.events().size());
                calls.add("progress " + p.done());
            }

            @Override
            public void onAwaitingDelivery(int requestsEnded) {
                calls.add("awaiting delivery after " + requestsEnded + " requests, " + sink.pending() + " events pending");
            }

            @Override
            public void onFinished(RunOutcome outcome) {
                calls.add("finished");
            }
        }).get(60, TimeUnit.SECONDS);
        // the progress line can say what the end of the run waits for (RunStarted and 5 request events held)
        assertEquals(java.util.Set.of("progress 1", "progress 2", "progress 3", "progress 4", "progress 5"),
                new java.util.HashSet<>(calls.subList(0, 5)));
        assertEquals(List.of("awaiting delivery after 5 requests, 6 events pending", "finished"),
                calls.subList(5, calls.size()));
        assertEquals(5, o.completed());
        assertEquals(List.of(0, 0, 0, 0, 0), seenDuringRun, "nothing reached the delegate while requests ran");
        assertEquals(7, inner.events().size());
        assertInstanceOf(RunStarted.class, inner.events().get(0).getPayload());
        assertInstanceOf(RunFinished.class, inner.events().get(6).getPayload());
        assertEquals("deferred", ((RunFinished) inner.events().get(6).getPayload()).getClientCheck().getEventDelivery());
    }

    @Test
    void aStopDuringTheWarmUpEndsTheRunBeforeT0WithoutAnyEvent() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunControl control = new RunControl();
        LoadGenerator g = new LoadGenerator(vertx);
        RunPlan plan = g.prepare(small(6, 2).withWarmup(new WarmupConfig(0, 50))).get(30, TimeUnit.SECONDS);
        vertx.setTimer(120, id -> control.requestStop());
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> g.run(plan, sink, null, control).get(60, TimeUnit.SECONDS));
        assertInstanceOf(StoppedBeforeStartException.class, e.getCause());
        assertEquals(List.of(), sink.events(), "no RunStarted, no request event: there is no run");
        assertTrue(chatRequests.get() < 20, "the warm-up stopped starting requests: " + chatRequests.get() + " of 50");
    }

    /**
     * A share whose coordinator stopped the run before the share's start instant (60 s away here) still starts at
     * once, sends nothing and ends with its RunFinished (interrupted, nothing sent), so that the run's report is
     * complete without waiting for the aggregator's deadline.
     */
    @Test
    void aShareStoppedBeforeItsStartEndsAtOnceWithItsRunFinished() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunControl control = new RunControl();
        control.requestStop();
        LoadGenerator g = new LoadGenerator(vertx);
        RunPlan plan = g.prepare(small(6, 2).withIdentity(i -> i.withRunId("share-stopped").withWorkerId("w0"))).get(30, TimeUnit.SECONDS);
        ShareAssignment a = new ShareAssignment(new PlanShare(0, 2), 1, System.currentTimeMillis() + 60_000, 0.0, 0.5);
        RunOutcome o = g.runShare(plan, a, sink, null, control).get(30, TimeUnit.SECONDS);
        assertTrue(o.interrupted(), "interrupted");
        assertEquals(0, o.requestsSent(), "requests sent");
        List<RunEvent> events = sink.events();
        assertEquals(1, events.size(), "only RunFinished: " + events);
        RunFinished f = (RunFinished) events.get(0).getPayload();
        assertTrue(f.getInterrupted(), f.toString());
        assertEquals(0, f.getRequestsSent(), f.toString());
        assertEquals(0, f.getShare(), f.toString());
    }
}

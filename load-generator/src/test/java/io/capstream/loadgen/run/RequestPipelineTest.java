package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.OutputChunkGaps;
import io.capstream.loadgen.client.Reply;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The request pipeline alone: a fake sender, a manual clock, events in memory. */
class RequestPipelineTest {
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    @TempDir
    Path dir;

    private static RunPlan plan(int requests) throws Exception {
        return plan(requests, null);
    }

    /** @param tools the {@code --tools} file, or null for a run without tools */
    private static RunPlan plan(int requests, Path tools) throws Exception {
        return RunPlanner.complete(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                .withLoad(l -> l.withRequests(requests))
                .withRequest(r -> r.withSharedPrefixTokens(0))
                .withConversation(c -> c.withTools(tools)), 32_768, ApiKey.none()).get();
    }

    /** @return the chunk counts the self-check is told, one per request, for a run of the given results */
    private static List<Integer> observedChunks(RunPlan plan, List<RequestResult> results) throws Exception {
        List<Integer> chunks = new CopyOnWriteArrayList<>();
        ManualCapClock clock = new ManualCapClock();
        List<Buffer> sent = new CopyOnWriteArrayList<>();
        RequestPipeline p = new RequestPipeline(plan, results.size(), bodies(plan), body -> {
            sent.add(body);
            return Future.succeededFuture(results.get(sent.size() - 1));
        }, new EventFactory("run-1", "w", plan, clock), clock.nanoTime(), new RequestPipeline.Observer() {
            @Override
            public void inFlight(int n) {
            }

            @Override
            public void request(long e2eNs, int n) {
                chunks.add(n);
            }
        }, new InMemoryEventSink(), new GuardedListener(new RunListener() {
        }, SecretMask.NONE), clock);
        Context ctx = vertx.getOrCreateContext();
        for (int i = 0; i < results.size(); i++) {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            int index = i;
            ctx.runOnContext(v -> p.launch(index, 0, ctx, () -> ended.complete(null)));
            ended.get(10, TimeUnit.SECONDS);
        }
        return chunks;
    }

    /** A completed result with these chunk counts (content, reasoning, tool-call deltas). */
    private static RequestResult chunks(int content, int reasoning, int toolCalls) {
        return new RequestResult(0, 5_000_000, 7_000_000, 20_000_000, 200, 10, 4, 0, content, reasoning, 1_000_000,
                toolCalls > 0 ? "tool_calls" : "stop", 100, OutputChunkGaps.NONE, null, toolCalls, Reply.NONE);
    }

    private static BodySource bodies(RunPlan plan) {
        RunConfig c = plan.config();
        return new BodySource(new PromptBuilder(0, "salt"), new RequestBodyBuilder(c.target().model(),
                c.request().maxTokens(), c.request().resolvedThinkingMode(), c.request().reasoningEffort(),
                c.target().endpoint(), c.request().extraBody()), plan.requestPlan(), c.request().maxTokens());
    }

    private static RequestResult ok(long t0Ns) {
        return new RequestResult(t0Ns, 5_000_000, 7_000_000, 20_000_000, 200, 10, 4, 0, 4, 0, 1_000_000, "stop",
                100, OutputChunkGaps.NONE, null);
    }

    @Test
    void eachRequestIsSentEmittedObservedAndCountedOnTheInjectedClock() throws Exception {
        ManualCapClock clock = new ManualCapClock();
        long t0 = clock.nanoTime();
        RunPlan plan = plan(3);
        InMemoryEventSink sink = new InMemoryEventSink();
        List<RunProgress> progress = new CopyOnWriteArrayList<>();
        List<RunEvent> told = new CopyOnWriteArrayList<>();
        List<String> observed = new CopyOnWriteArrayList<>();
        List<Buffer> sent = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void onProgress(RunProgress p) {
                progress.add(p);
                throw new IllegalStateException("a listener's bug");
            }

            @Override
            public void onEvent(RunEvent event) {
                told.add(event);
            }
        };
        RequestPipeline.Observer observer = new RequestPipeline.Observer() {
            @Override
            public void inFlight(int n) {
                observed.add("inFlight " + n);
            }

            @Override
            public void request(long e2eNs, int chunks) {
                observed.add("request e2e=" + e2eNs + " chunks=" + chunks);
            }
        };
        // request 0 completes 2 ms after T0 (scheduled at 0), request 1 fails with a 500, 3 ms after its 1 ms schedule
        List<RequestResult> results = List.of(ok(t0 + 2_000_000),
                new RequestResult(t0 + 4_000_000, -1, -1, 9_000_000, 500, -1, -1, -1, 0, 0, -1, null, 12,
                        OutputChunkGaps.NONE, RequestError.of("HTTPError", "500 boom")));
        RequestPipeline p = new RequestPipeline(plan, 2, bodies(plan), body -> {
            sent.add(body);
            return Future.succeededFuture(results.get(sent.size() - 1));
        }, new EventFactory("run-1", "w", plan, clock), t0, observer, sink,
                new GuardedListener(listener, SecretMask.NONE), clock);
        Context ctx = vertx.getOrCreateContext();
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        clock.advance(Duration.ofMillis(30));
        ctx.runOnContext(v -> p.launch(0, 0, ctx, () -> first.complete(null)));
        first.get(10, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(20));
        ctx.runOnContext(v -> p.launch(1, 1_000_000, ctx, () -> second.complete(null)));
        second.get(10, TimeUnit.SECONDS);

        assertThat(sent).as("bodies sent").hasSize(2);
        assertThat(sent.get(0).toString()).as("request 0's body").contains("\"model\":\"m\"").contains("\"stream\":true");
        assertThat(sink.events()).as("events, in the sink's order").hasSize(2);
        assertThat(told).as("the listener is told every event").containsExactlyElementsOf(sink.events());
        RequestCompleted c = (RequestCompleted) sink.events().get(0).getPayload();
        RequestFailed f = (RequestFailed) sink.events().get(1).getPayload();
        assertThat(c.getRequestIndex()).as("completed index").isEqualTo(0);
        assertThat(f.getRequestIndex()).as("failed index").isEqualTo(1);
        assertThat(f.getHttpStatus()).as("failed status").isEqualTo(500);
        assertThat(sink.events().get(0).getEmittedAtMs()).as("emitted_at_ms from the clock")
                .isEqualTo(clock.millis() - 20);
        assertThat(observed).as("what the self-check is told").containsExactly("inFlight 1",
                "request e2e=20000000 chunks=4", "inFlight 1", "request e2e=9000000 chunks=0");
        assertThat(p.done()).as("done").isEqualTo(2);
        assertThat(p.failed()).as("failed").isEqualTo(1);
        assertThat(p.lastEndNs() - t0).as("last end on the clock, ns after T0").isEqualTo(50_000_000L);
        assertThat(progress).as("progress after each end").extracting(RunProgress::done).containsExactly(1, 2);
        assertThat(progress.get(1).elapsedNs()).as("progress time on the clock, ns").isEqualTo(50_000_000L);
        assertThat(progress.get(1).failed()).as("failed in progress").isEqualTo(1);
    }

    @Test
    void toolCallChunksAreOutputChunksForTheSelfCheckWhenTheRunSendsTools() throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{}}}]");
        assertThat(observedChunks(plan(2, tools), List.of(chunks(0, 0, 3), chunks(4, 2, 1))))
                .as("chunks told per request with --tools: a tool-call-only answer's deltas count, as do mixed ones")
                .containsExactly(3, 7);
        assertThat(observedChunks(plan(1), List.of(chunks(4, 2, 5))))
                .as("chunks told without --tools: tool-call deltas are no output (the reference's numbers)")
                .containsExactly(6);
    }

    @Test
    void aClosedLoopsWaitingSlotsCountInFlightUpToTheSlots() throws Exception {
        ManualCapClock clock = new ManualCapClock();
        RunPlan plan = plan(1);
        List<RunProgress> progress = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void onProgress(RunProgress pr) {
                progress.add(pr);
            }
        };
        // one request: its progress comes before its onEnd
        RequestPipeline p = new RequestPipeline(plan, 1, bodies(plan), body -> Future.succeededFuture(
                ok(clock.nanoTime())), new EventFactory("run-1", "w", plan, clock), clock.nanoTime(),
                new RequestPipeline.Observer() {
                    @Override
                    public void inFlight(int n) {
                    }

                    @Override
                    public void request(long e2eNs, int chunks) {
                    }
                }, new InMemoryEventSink(), new GuardedListener(listener, SecretMask.NONE), clock);
        p.waitingForTurn(() -> 5, 3);
        Context ctx = vertx.getOrCreateContext();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        ctx.runOnContext(v -> p.launch(0, 0, ctx, () -> ended.complete(null)));
        ended.get(10, TimeUnit.SECONDS);
        assertThat(progress.get(0).inFlight()).as("in flight: 0 sending + min(5 waiting, 3 slots - 0)").isEqualTo(3);
    }

    /**
     * Issue 30: the pipeline hands each request the cancel time drawn for its index; a cancelled result becomes a
     * RequestFailed with cancelled true and what had arrived, counted as cancelled (not failed) in the progress.
     */
    @Test
    void aCancelledRequestIsSentWithItsDrawnTimeAndCountedApartFromFailures() throws Exception {
        ManualCapClock clock = new ManualCapClock();
        long t0 = clock.nanoTime();
        CancelShape shape = new CancelShape(0.5, 0.1, 0.02);
        RunPlan plan = RunPlanner.complete(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                .withLoad(l -> l.withRequests(8)).withRequest(r -> r.withSharedPrefixTokens(0))
                .withIdentity(i -> i.withSeed(11)).withCancel(shape), 32_768, ApiKey.none()).get();
        CancelDraws draws = new CancelDraws(shape, 11);
        InMemoryEventSink sink = new InMemoryEventSink();
        List<RunProgress> progress = new CopyOnWriteArrayList<>();
        List<Long> handed = new CopyOnWriteArrayList<>();
        RequestPipeline p = new RequestPipeline(plan, 8, bodies(plan), (RequestPipeline.Sender) (body, h, cancelNs) -> {
            handed.add(cancelNs);
            return Future.succeededFuture(cancelNs < 0 ? ok(t0) : new RequestResult(t0, 40_000_000, 60_000_000,
                    cancelNs, 200, -1, 3, -1, 2, 1, 1_000_000, null, 90, OutputChunkGaps.NONE,
                    RequestError.of(io.capstream.loadgen.client.ErrorTypes.CANCELLED, "cancelled by the client")));
        }, new EventFactory("run-1", "w", plan, clock), t0, new RequestPipeline.Observer() {
            @Override
            public void inFlight(int n) {
            }

            @Override
            public void request(long e2eNs, int chunks) {
            }
        }, sink, new GuardedListener(new RunListener() {
            @Override
            public void onProgress(RunProgress pr) {
                progress.add(pr);
            }
        }, SecretMask.NONE), clock);
        Context ctx = vertx.getOrCreateContext();
        List<Long> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            expected.add(draws.cancelAfterNs(i));
            CompletableFuture<Void> ended = new CompletableFuture<>();
            int index = i;
            ctx.runOnContext(v -> p.launch(index, 0, ctx, () -> ended.complete(null)));
            ended.get(10, TimeUnit.SECONDS);
        }
        assertThat(handed).as("cancel times handed to the sender, by index").isEqualTo(expected);
        long cancels = expected.stream().filter(x -> x >= 0).count();
        assertThat(cancels).as("requests drawn for cancellation (seed 11)").isBetween(1L, 7L);
        assertThat(p.cancelled()).as("cancelled").isEqualTo((int) cancels);
        assertThat(p.failed()).as("failed").isZero();
        assertThat(progress.get(7).cancelled()).as("cancelled in the last progress").isEqualTo((int) cancels);
        assertThat(progress.get(7).failed()).as("failed in the last progress").isZero();
        int k = expected.indexOf(expected.stream().filter(x -> x >= 0).findFirst().orElseThrow());
        RequestFailed f = (RequestFailed) sink.events().get(k).getPayload();
        assertThat(f.getCancelled()).as("cancelled flag of request %d", k).isTrue();
        assertThat(f.getErrorType()).as("error type").isEqualTo("Cancelled");
        assertThat(f.getCancelAfterNs()).as("cancel_after_ns").isEqualTo(expected.get(k));
        assertThat(f.getTtfoNs()).as("ttfo_ns").isEqualTo(40_000_000L);
        assertThat(f.getTtftNs()).as("ttft_ns").isEqualTo(60_000_000L);
        assertThat(f.getCompletionTokens()).as("completion_tokens").isEqualTo(3L);
        assertThat(f.getContentChunks()).as("content chunks").isEqualTo(2);
        assertThat(f.getElapsedNs()).as("elapsed_ns").isEqualTo(expected.get(k));
        RequestFailed plain = (RequestFailed) new EventFactory("run-1", "w", plan, clock).failed(0, 0, 0, 5, 500, 0, 0,
                RequestError.of("HTTPError", "boom")).getPayload();
        assertThat(plain.getCancelled()).as("an ordinary failure's cancelled flag").isFalse();
        assertThat(plain.getCancelAfterNs()).as("an ordinary failure's cancel_after_ns").isNull();
    }

    /**
     * Issue 33: every request carries a traceparent and an X-Request-Id (none with --no-trace-headers), and its event
     * the ids sent with what the response said of the server's view (its TTFT from llama.cpp's prompt_ms).
     */
    @Test
    void eachRequestCarriesTraceHeadersAndItsEventTheServersView() throws Exception {
        io.capstream.loadgen.client.ServerReply reply = new io.capstream.loadgen.client.ServerReply("chatcmpl-9",
                null, 25, 12.5, 5, 9.0, 3, null);
        for (boolean on : List.of(true, false)) {
            ManualCapClock clock = new ManualCapClock();
            long t0 = clock.nanoTime();
            RunPlan plan = RunPlanner.complete(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m")
                    .withTraceHeaders(on)).withLoad(l -> l.withRequests(2)).withRequest(r -> r.withSharedPrefixTokens(0)),
                    32_768, ApiKey.none()).get();
            InMemoryEventSink sink = new InMemoryEventSink();
            List<java.util.Map<String, String>> headers = new CopyOnWriteArrayList<>();
            RequestPipeline p = new RequestPipeline(plan, 2, bodies(plan), (RequestPipeline.Sender) (body, h, c) -> {
                headers.add(h);
                RequestResult r = ok(t0);
                return Future.succeededFuture(new RequestResult(r.t0Ns(), r.ttfoNs(), r.ttftNs(), r.e2eNs(), 200,
                        r.promptTokens(), r.completionTokens(), r.cachedTokens(), r.contentChunks(), 0,
                        r.maxChunkGapNs(), "stop", 100, OutputChunkGaps.NONE, null, 0, Reply.NONE, null,
                        headers.size() == 1 ? reply : null));
            }, new EventFactory("run-1", "w", plan, clock), t0, new RequestPipeline.Observer() {
                @Override
                public void inFlight(int n) {
                }

                @Override
                public void request(long e2eNs, int chunks) {
                }
            }, sink, new GuardedListener(new RunListener() {
            }, SecretMask.NONE), clock);
            Context ctx = vertx.getOrCreateContext();
            for (int i = 0; i < 2; i++) {
                CompletableFuture<Void> ended = new CompletableFuture<>();
                int index = i;
                ctx.runOnContext(v -> p.launch(index, 0, ctx, () -> ended.complete(null)));
                ended.get(10, TimeUnit.SECONDS);
            }
            io.capstream.schemas.avro.ServerView first =
                    ((io.capstream.schemas.avro.RequestCompleted) sink.events().get(0).getPayload()).getServerView();
            io.capstream.schemas.avro.ServerView second =
                    ((io.capstream.schemas.avro.RequestCompleted) sink.events().get(1).getPayload()).getServerView();
            if (on) {
                assertThat(headers.get(0)).as("headers of request 0").containsKeys("traceparent", "X-Request-Id");
                assertThat(headers.get(0).get("X-Request-Id")).as("X-Request-Id of request 0").isEqualTo("run-1-0");
                assertThat(headers.get(1).get("X-Request-Id")).as("X-Request-Id of request 1").isEqualTo("run-1-1");
                assertThat(headers.get(0).get("traceparent")).as("traceparent of request 0")
                        .isEqualTo("00-" + first.getTraceId() + "-" + headers.get(0).get("traceparent")
                                .substring(36, 52) + "-01");
                assertThat(first.getRequestId()).as("server_view.request_id").isEqualTo("run-1-0");
                assertThat(first.getTraceId()).as("trace ids differ per request").isNotEqualTo(second.getTraceId());
                assertThat(first.getResponseId()).as("server_view.response_id").isEqualTo("chatcmpl-9");
                assertThat(first.getServerTtftMs()).as("server_view.server_ttft_ms").isEqualTo(12.5);
                assertThat(first.getServerTtftSource()).as("server_ttft_source").isEqualTo("timings.prompt_ms");
                assertThat(first.getCacheN()).as("cache_n").isEqualTo(3);
                assertThat(second.getServerTtftMs()).as("a response without timings").isNull();
            } else {
                assertThat(headers).as("headers with --no-trace-headers").allSatisfy(h -> assertThat(h).isEmpty());
                assertThat(first.getRequestId()).as("request_id with --no-trace-headers").isNull();
                assertThat(first.getServerTtftMs()).as("the server's view is still recorded").isEqualTo(12.5);
                assertThat(second).as("nothing sent, nothing answered: no server_view").isNull();
            }
        }
    }
}

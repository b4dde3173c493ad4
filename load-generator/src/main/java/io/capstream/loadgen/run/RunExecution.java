package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import io.capstream.loadgen.arrival.ClosedLoop;
import io.capstream.loadgen.arrival.DriverConfig;
import io.capstream.loadgen.arrival.OpenLoop;
import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.ErrorTypes;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.avro.RunEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run in progress (internal to {@link LoadGenerator}): spec §5 with capstream's arrival
 * processes. Requests are spread over one event-loop context per Vert.x event loop; prompts and
 * bodies of more than {@value #INLINE_BODY_CHARS} characters are built on a worker thread so that
 * the event loops keep reading streams. Body building happens before t0 (excluded from the
 * request's timing, part of its client queue time).
 */
final class RunExecution {
    static final int INLINE_BODY_CHARS = 64 * 1024;

    private final Vertx vertx;
    private final RunPlan plan;
    private final RunConfig config;
    private final EventSink sink;
    private final RunListener listener;
    private final RunControl control;
    private final PromptBuilder prompts;
    private final RequestBodyBuilder bodies;
    private final RunningMedian ttftMedian = new RunningMedian();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong lastEndNs = new AtomicLong();
    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    private StreamingClient client;
    private EventFactory events;
    private String runId;
    private String workerId;
    private Instant startedAt;
    private long t0;

    RunExecution(Vertx vertx, RunPlan plan, EventSink sink, RunListener listener, RunControl control) {
        this.vertx = vertx;
        this.plan = plan;
        this.config = plan.config();
        this.sink = sink;
        this.listener = listener == null ? RunListener.NONE : listener;
        this.control = control == null ? new RunControl() : control;
        this.prompts = new PromptBuilder(config.sharedPrefixTokens());
        this.bodies = new RequestBodyBuilder(config.model(), config.maxTokens(), config.resolvedThinkingMode(),
                config.reasoningEffort());
    }

    CompletableFuture<RunOutcome> start() {
        try {
            boolean open = config.arrival() != ArrivalMode.CLOSED;
            int slots = open ? config.effectiveMaxInFlight() : config.effectiveConcurrency();
            client = new StreamingClient(vertx, new ClientConfig(config.baseUrl(), config.timeoutS(),
                    config.keepAlive(), 2 * Math.min(slots, plan.requests()) + 16, plan.apiKey()));
            List<Context> contexts = contexts();
            startedAt = Instant.now();
            t0 = System.nanoTime();
            lastEndNs.set(t0);
            runId = RunIds.runId(startedAt, config.runId(), config.runIdSuffix());
            workerId = config.workerId() != null ? config.workerId() : "worker-" + UUID.randomUUID();
            events = new EventFactory(runId, workerId, plan);
            emit(events.runStarted(startedAt));
            listener.onStarted(runId, plan);
            long deadline = !open && config.durationS() != null
                    ? t0 + (long) (config.durationS() * 1e9) : Long.MAX_VALUE;
            long rampUpNs = config.rampUpS() == null ? 0 : (long) (config.rampUpS() * 1e9);
            DriverConfig dc = new DriverConfig(plan.requests(), slots, t0, deadline, contexts, control::stopRequested,
                    rampUpNs);
            CompletableFuture<Integer> drained = open
                    ? new OpenLoop(dc, new ArrivalSchedule(config.arrival(), config.rateRps(), config.seed()), this::launch).start()
                    : new ClosedLoop(dc, this::launch).start();
            drained.whenComplete((started, err) -> finish(started == null ? done.get() : started));
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            outcome.completeExceptionally(e);
        }
        return outcome;
    }

    private List<Context> contexts() {
        int loops = 0;
        for (var ignored : ((VertxInternal) vertx).nettyEventLoopGroup()) {
            loops++;
        }
        int n = Math.max(1, Math.min(loops, Math.max(1, plan.requests())));
        List<Context> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(((VertxInternal) vertx).createEventLoopContext());
        }
        return list;
    }

    private void launch(int index, long scheduledNs, Context ctx, Runnable onEnd) {
        inFlight.incrementAndGet();
        int planned = plan.contextPlan().planned(index);
        String prompt;
        Future<Buffer> body;
        if (planned * PromptBuilder.CHARS_PER_TOKEN <= INLINE_BODY_CHARS) {
            try {
                body = Future.succeededFuture(Buffer.buffer(bodies.body(prompts.prompt(index, planned))));
            } catch (PromptBuilder.PromptTooSmallException e) {
                body = Future.failedFuture(e);
            }
        } else {
            body = ctx.executeBlocking(() -> Buffer.buffer(bodies.body(prompts.prompt(index, planned))), false);
        }
        body.onComplete(ar -> {
            if (ar.failed()) {
                long start = System.nanoTime() - t0;
                RequestError err = ar.cause() instanceof PromptBuilder.PromptTooSmallException
                        ? RequestError.of(ErrorTypes.VALUE_ERROR, PromptBuilder.TOO_SMALL)
                        : RequestError.of("RuntimeError", String.valueOf(ar.cause()));
                ended(events.failed(index, scheduledNs, start, 0, -1, 0, 0, err), false, null, onEnd);
                return;
            }
            client.execute(ar.result()).onComplete(rr -> {
                RequestResult r = rr.result();
                long start = r.t0Ns() - t0;
                RunEvent ev = r.ok()
                        ? events.completed(index, scheduledNs, start, r)
                        : events.failed(index, scheduledNs, start, r.e2eNs(), r.httpStatus(), r.contentChunks(),
                        r.reasoningChunks(), r.error());
                ended(ev, r.ok(), r, onEnd);
            });
        });
    }

    private void ended(RunEvent ev, boolean ok, RequestResult r, Runnable onEnd) {
        long now = System.nanoTime();
        lastEndNs.accumulateAndGet(now, Math::max);
        if (ok) {
            ttftMedian.add(r.ttftNs() / 1e6);
        } else {
            failed.incrementAndGet();
        }
        emit(ev);
        int d = done.incrementAndGet();
        int f = inFlight.decrementAndGet();
        try {
            listener.onProgress(new RunProgress(d, plan.requests(), failed.get(), f, ttftMedian.median(), now - t0));
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
        onEnd.run();
    }

    private void emit(RunEvent ev) {
        sink.send(ev);
        try {
            listener.onEvent(ev);
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    private void finish(int started) {
        long wall = lastEndNs.get() - t0;
        Instant finishedAt = Instant.now();
        int sent = done.get();
        // a time-bounded closed loop that ends at its duration is complete, not interrupted
        boolean interrupted = control.stopRequested() || (sent < plan.requests() && config.durationS() == null);
        client.close();
        sink.flush().whenComplete((u1, e1) -> {
            long undelivered = sink.undelivered();
            emit(events.runFinished(wall, startedAt, finishedAt, sent, interrupted, undelivered));
            sink.flush().whenComplete((u2, e2) -> {
                RunOutcome o = new RunOutcome(runId, workerId, plan.requests(), sent, sent - failed.get(),
                        failed.get(), sink.undelivered(), interrupted, startedAt, finishedAt, wall);
                try {
                    listener.onFinished(o);
                } catch (RuntimeException ignored) {
                    // a listener's bug must not change the outcome
                }
                outcome.complete(o);
            });
        });
    }
}

package io.capstream.loadgen.run;

import io.capstream.loadgen.client.ErrorTypes;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.ServerReply;
import io.capstream.loadgen.client.TraceHeaders;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBody;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * The requests of one run from T0: builds each request's body (before its t0: excluded from its timing, part of its
 * client queue time), sends it, turns its result into its {@code RequestCompleted} or {@code RequestFailed}, emits
 * that (sink, then listener), tells the self-check and reports progress. Counts what ended and failed, and when the
 * last one ended. Thread-safe: requests end on several event-loop contexts.
 */
final class RequestPipeline {
    /** What the self-check is told of each request. */
    interface Observer {
        /** @param n requests in flight now */
        void inFlight(int n);

        /**
         * @param e2eNs  end-to-end time, ns, or -1 when it was never sent
         * @param chunks output chunks received: content and reasoning deltas, and in a run that sends tools
         *               ({@code --tools}) tool-call deltas too
         */
        void request(long e2eNs, int chunks);
    }

    private final RunPlan plan;
    private final int requests;
    private final BodySource bodies;
    private final Sender send;
    /** Which requests the client cancels, and when (issue 30). */
    private final CancelDraws cancels;
    private final EventFactory events;
    private final long t0;
    private final Observer observer;
    private final EventSink sink;
    private final GuardedListener listener;
    private final CapClock clock;
    /** The run sends tools: tool-call deltas are output chunks (as the client counts them). */
    private final boolean toolsSent;
    /** The correlation headers each request carries (issue 33); empty with {@code --no-trace-headers}. */
    private final List<String> traceNames;
    private final RunningMedian ttftMedian = new RunningMedian();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger cancelled = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Planned turns of conversations that ended early, never sent (they count towards the planned requests). */
    private final AtomicInteger unsent = new AtomicInteger();
    private final AtomicLong lastEndNs;
    /** Told of each ended request (the stop rules, issue 30); none by default. */
    private volatile EndObserver endObserver = (r, d) -> {
    };
    /** A closed loop's slots between a request's end and their turn to start the next (progress in flight). */
    private volatile IntSupplier waitingForTurn = () -> 0;

    /** Sends one request (the streaming client). */
    interface Sender {
        /**
         * @param body          the serialised body
         * @param headers       headers of this request only; not null
         * @param cancelAfterNs when the client cancels it, ns after its t0 (issue 30); negative = never
         * @return its result; the future always succeeds
         */
        Future<RequestResult> send(Buffer body, Map<String, String> headers, long cancelAfterNs);
    }

    /**
     * @param plan     the run's plan (each request's planned context); not null
     * @param requests requests this execution sends (the plan's or a share's), &gt;= 0
     * @param bodies   the request bodies; not null
     * @param send     sends a body (the streaming client); not null
     * @param events   the run's event factory; not null
     * @param t0       the run's T0, ns on {@code clock}'s monotonic scale (that of the results' {@code t0Ns})
     * @param observer the self-check; not null
     * @param sink     where the events go; not null
     * @param listener the run's listener; not null
     * @param clock    the clock of the request ends (the system clock in a run); not null
     */
    RequestPipeline(RunPlan plan, int requests, BodySource bodies, Function<Buffer, Future<RequestResult>> send,
                    EventFactory events, long t0, Observer observer, EventSink sink, GuardedListener listener,
                    CapClock clock) {
        this(plan, requests, bodies, (body, headers) -> send.apply(body), events, t0, observer, sink, listener, clock);
    }

    /**
     * As above, with a sender that takes per-request headers (a conversation's {@code --session-header}).
     *
     * @param plan     the run's plan; not null
     * @param requests requests this execution sends, &gt;= 0
     * @param bodies   the single-turn request bodies; not null
     * @param send     sends a body with headers of its own (the streaming client); not null
     * @param events   the run's event factory; not null
     * @param t0       the run's T0, ns on {@code clock}'s monotonic scale
     * @param observer the self-check; not null
     * @param sink     where the events go; not null
     * @param listener the run's listener; not null
     * @param clock    the clock of the request ends; not null
     */
    RequestPipeline(RunPlan plan, int requests, BodySource bodies,
                    BiFunction<Buffer, Map<String, String>, Future<RequestResult>> send, EventFactory events, long t0,
                    Observer observer, EventSink sink, GuardedListener listener, CapClock clock) {
        this(plan, requests, bodies, (Sender) (body, headers, cancelAfterNs) -> send.apply(body, headers), events, t0,
                observer, sink, listener, clock);
    }

    /**
     * As above, with a sender that cancels a request at the time the run's {@link CancelDraws} drew for it (issue
     * 30, {@code --cancel-rate}); the senders above never cancel.
     *
     * @param plan     the run's plan (its cancellation group and seed); not null
     * @param requests requests this execution sends, &gt;= 0
     * @param bodies   the single-turn request bodies; not null
     * @param send     sends a body with its headers and cancel time (the streaming client); not null
     * @param events   the run's event factory; not null
     * @param t0       the run's T0, ns on {@code clock}'s monotonic scale
     * @param observer the self-check; not null
     * @param sink     where the events go; not null
     * @param listener the run's listener; not null
     * @param clock    the clock of the request ends; not null
     */
    RequestPipeline(RunPlan plan, int requests, BodySource bodies, Sender send, EventFactory events, long t0,
                    Observer observer, EventSink sink, GuardedListener listener, CapClock clock) {
        this.plan = plan;
        this.cancels = new CancelDraws(plan.config().cancel(), plan.config().identity().seed());
        this.requests = requests;
        this.bodies = bodies;
        this.send = send;
        this.events = events;
        this.t0 = t0;
        this.observer = observer;
        this.sink = sink;
        this.listener = listener;
        this.clock = clock;
        this.toolsSent = plan.config().conversation().tools() != null;
        this.traceNames = ServerViews.sentNames(plan.config().target());
        this.lastEndNs = new AtomicLong(t0);
    }

    /**
     * Sends request {@code index} (the arrival driver's {@code RequestLauncher}).
     *
     * @param index       the request's global index
     * @param scheduledNs when it was due, ns after T0
     * @param ctx         the event-loop context it runs on
     * @param onEnd       run once when it ended (after its event was emitted)
     */
    void launch(int index, long scheduledNs, Context ctx, Runnable onEnd) {
        observer.inFlight(inFlight.incrementAndGet());
        bodies.request(ctx, index, plan.contextPlan().planned(index)).onComplete(
                ar -> sendBuilt(ar, index, scheduledNs, Map.of(), null, null, r -> onEnd.run()));
    }

    /**
     * How a conversation's turn ends (issue 29): decided by the conversation when its result is known, before its
     * event is built, so that a conversation that ends early says so on its last request's event.
     */
    interface TurnEnd {
        /**
         * @param r the turn's result, or null when it failed before it was sent
         * @return why the conversation ends here before its planned turns, with its unsent turns; null when it
         *         goes on or this was its last planned turn
         */
        EventFactory.Ending decide(RequestResult r);
    }

    /**
     * Sends one turn of a conversation (issue 29): request {@code index} with a body the conversation wrote, its
     * conversation's headers, and the conversation's fields on its event. The body is written where it does not hold
     * up the event loop (a worker thread of {@code ctx} when {@code largeBody}). {@code ending} decides before the
     * event is built whether the conversation ends here early; its unsent turns then count as ended for the
     * progress and the run's end.
     *
     * @param index       the request's global index
     * @param scheduledNs when it was due, ns after T0
     * @param ctx         the event-loop context it runs on
     * @param body        writes the body (UTF-8 JSON, with its images); may throw (the request then fails before it
     *                    is sent)
     * @param largeBody   whether to write the body on a worker thread
     * @param headers     headers of this request only; not null
     * @param turn        the conversation's id and the turn's number on the event; not null
     * @param ending      decides whether the conversation ends here early; not null
     * @param onEnd       run once when it ended (after its event was emitted), with its result, or null when it
     *                    failed before it was sent
     */
    void launchTurn(int index, long scheduledNs, Context ctx, Callable<RequestBody> body, boolean largeBody,
                    Map<String, String> headers, EventFactory.Turn turn, TurnEnd ending,
                    Consumer<RequestResult> onEnd) {
        observer.inFlight(inFlight.incrementAndGet());
        Future<RequestBody> built;
        if (largeBody) {
            built = ctx.executeBlocking(body, false);
        } else {
            try {
                built = Future.succeededFuture(body.call());
            } catch (Exception e) {
                built = Future.failedFuture(e);
            }
        }
        built.onComplete(ar -> sendBuilt(ar, index, scheduledNs, headers, turn, ending, onEnd));
    }

    /**
     * Sends a built body, or fails the request whose body could not be built; builds its event (with the
     * conversation's fields and early end when {@code turn} is given) and ends it.
     *
     * @param turn   the conversation's turn, or null for a single request
     * @param ending decides the conversation's early end; null exactly when {@code turn} is
     * @param onEnd  run once when the request ended, with its result (null when it failed before it was sent)
     */
    private void sendBuilt(AsyncResult<RequestBody> ar, int index, long scheduledNs, Map<String, String> headers,
                           EventFactory.Turn turn, TurnEnd ending, Consumer<RequestResult> onEnd) {
        if (ar.failed()) {
            long start = clock.nanoTime() - t0;
            Throwable cause = ar.cause();
            RequestError err = cause instanceof PromptBuilder.PromptTooSmallException
                    || PromptBuilder.TOO_SMALL.equals(cause.getMessage())
                    ? RequestError.of(ErrorTypes.VALUE_ERROR, PromptBuilder.TOO_SMALL)
                    : RequestError.of("RuntimeError", String.valueOf(cause));
            EventFactory.Turn t = decided(turn, ending, null);
            ended(events.failed(index, scheduledNs, start, 0, -1, 0, 0, err, t), null, scheduledNs, start,
                    () -> onEnd.accept(null));
            return;
        }
        RequestBody built = ar.result();
        long cancelAfterNs = cancels.cancelAfterNs(index);
        TraceHeaders.Ids ids = ServerViews.ids(traceNames, events.runId(), index);
        send.send(built.buffer(), ServerViews.headers(ids, headers), cancelAfterNs).onComplete(rr -> {
            RequestResult r = rr.result();
            long start = r.t0Ns() - t0;
            EventFactory.Turn t = decided(turn, ending, r);
            RunEvent ev;
            RequestResult counted = r;
            try {
                ev = r.ok()
                        ? events.completed(index, scheduledNs, start, r, t)
                        : EventParts.withPhases(EventParts.withCancel(events.failed(index, scheduledNs, start,
                        r.e2eNs(), r.httpStatus(), r.contentChunks(), r.reasoningChunks(), r.error(), t), r,
                        cancelAfterNs), r.phases());
            } catch (RuntimeException e) {
                // a result the event cannot hold: still this request's end (a failure), so that the run ends too
                ev = events.failed(index, scheduledNs, start, r.e2eNs(), r.httpStatus(), r.contentChunks(),
                        r.reasoningChunks(), RequestError.of("RuntimeError", String.valueOf(e)), t);
                counted = null;
            }
            EventParts.withImages(ev, built.images());
            ServerViews.attach(ev, ids, r.server() == null ? ServerReply.NONE : r.server());
            ended(ev, counted, scheduledNs, start, () -> onEnd.accept(r));
        });
    }

    /** @return {@code turn} with its conversation's early end decided from {@code r} (unsent turns counted), or null */
    private EventFactory.Turn decided(EventFactory.Turn turn, TurnEnd ending, RequestResult r) {
        if (turn == null) {
            return null;
        }
        EventFactory.Turn t = turn.ending(ending.decide(r));
        countUnsent(t);
        return t;
    }

    private void countUnsent(EventFactory.Turn t) {
        if (t.unsentTurns() != null && t.unsentTurns() > 0) {
            unsent.addAndGet(t.unsentTurns());
        }
    }

    /**
     * @return the request's output chunks: content and reasoning deltas, plus tool-call deltas in a run that sends
     *         tools (without tools they are no output, as in the client's measurements)
     */
    private int outputChunks(RequestResult r) {
        return r.contentChunks() + r.reasoningChunks() + (toolsSent ? r.toolCallChunks() : 0);
    }

    /**
     * @param r           the request's result, or null when it failed before it was sent
     * @param scheduledNs when it was due, ns after T0
     * @param startNs     when it was sent, ns after T0 (its client-side queueing is {@code startNs - scheduledNs})
     */
    private void ended(RunEvent ev, RequestResult r, long scheduledNs, long startNs, Runnable onEnd) {
        long now = clock.nanoTime();
        lastEndNs.accumulateAndGet(now, Math::max);
        boolean ok = r != null && r.ok();
        if (ok) {
            if (r.ttftNs() >= 0) { // embeddings and rerank have no first token
                ttftMedian.add(r.ttftNs() / 1e6);
            }
        } else if (r != null && r.cancelled()) {
            cancelled.incrementAndGet();
        } else {
            failed.incrementAndGet();
        }
        observer.request(r == null ? -1 : r.e2eNs(), r == null ? 0 : outputChunks(r));
        emit(ev);
        int d = done.incrementAndGet();
        inFlight.decrementAndGet();
        // the stop rules (issue 30) see it before the driver may start the next request
        endObserver.ended(StopRuleInput.of(ev, r, scheduledNs, startNs, now - t0), d);
        if (d >= requests - unsent.get()) {
            // the last request: reported before onEnd, which may end the run (nothing is reported after that)
            progress(d, now);
            onEnd.run();
        } else {
            // a closed loop's slot queues for its turn in onEnd: the progress counts it in flight
            // (waitingForTurn), so that a run at concurrency N shows N in flight, not N - 1
            onEnd.run();
            progress(d, now);
        }
    }

    private void progress(int d, long now) {
        listener.progress(new RunProgress(d, requests - unsent.get(), failed.get(), inFlight.get() + waitingForTurn.getAsInt(),
                ttftMedian.median(), now - t0, cancelled.get()));
    }

    /**
     * Hands an event to the sink, then tells the listener.
     *
     * @param ev the event; not null
     */
    void emit(RunEvent ev) {
        sink.send(ev);
        listener.event(ev);
    }

    /**
     * A closed loop's slots waiting for their turn, counted in flight by the progress; read apart from the in-flight
     * count (another context may be between the two), so at most {@code slots} minus those in flight.
     *
     * @param waiting the closed loop's count
     * @param slots   the run's slots
     */
    void waitingForTurn(IntSupplier waiting, int slots) {
        this.waitingForTurn = () -> Math.min(waiting.getAsInt(), Math.max(0, slots - inFlight.get()));
    }

    /** What is told of each ended request (the run's stop rules, issue 30). */
    interface EndObserver {
        /**
         * @param r             the request as the stop rules see it
         * @param requestsEnded requests ended so far, this one included
         */
        void ended(io.capstream.loadgen.stop.EndedRequest r, int requestsEnded);
    }

    /** @param observer told of each ended request, on its event loop, before the driver hears of it; not null */
    void onEnded(EndObserver observer) {
        this.endObserver = observer;
    }

    /** @return requests that ended */
    int done() {
        return done.get();
    }

    /** @return planned turns of conversations that ended early, never sent */
    int unsent() {
        return unsent.get();
    }

    /** @return requests that ended and failed (not those the client cancelled) */
    int failed() {
        return failed.get();
    }

    /** @return requests the client cancelled (issue 30, {@code --cancel-rate}) */
    int cancelled() {
        return cancelled.get();
    }

    /** @return when the last request ended, ns on the clock's scale (T0 while none has) */
    long lastEndNs() {
        return lastEndNs.get();
    }
}

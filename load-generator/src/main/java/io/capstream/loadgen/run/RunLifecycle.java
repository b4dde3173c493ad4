package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalClock;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import io.capstream.loadgen.arrival.ClosedLoop;
import io.capstream.loadgen.arrival.DriverConfig;
import io.capstream.loadgen.arrival.IoYield;
import io.capstream.loadgen.arrival.OpenLoop;
import io.capstream.loadgen.arrival.RequestLauncher;
import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.conversation.ConversationScript;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.images.ImagePool;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.loadgen.stop.StopRuleChecker;
import io.capstream.loadgen.stop.StopTrip;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run in progress (internal to {@link LoadGenerator}), spec §5 with capstream's arrival processes: its start,
 * T0 and end. Before T0 the {@link SideProbes} find the server metrics, the {@link RunWarmup} warms the client and the
 * target, then the probes collect the garbage, start the self-check and take the baseline scrape; at T0 (now, or a
 * distributed share's shared instant) it emits {@code RunStarted} and starts the arrival driver, whose requests go
 * through the {@link RequestPipeline}; when they drained it stops the probes, flushes the sink, emits
 * {@code RunFinished} and completes the {@link RunOutcome}. Requests are spread over one event-loop context per core.
 * Wall and monotonic time come from one {@link CapClock}.
 */
final class RunLifecycle {
    /** The scraped series the saturation detector watches: the endpoint's waiting requests (SeriesNames). */
    static final String SATURATION_SERIES = "requests_waiting";
    private final Vertx vertx;
    private final RunPlan plan;
    private final RunConfig config;
    private final EventSink sink;
    private final GuardedListener listener;
    private final RunControl control;
    private final CapClock clock;
    private final BodySource bodySource;
    /** The share a worker executes, or null for a run sent by one process. */
    private final ShareAssignment assignment;
    /** Requests this execution sends: the plan's, or the share's part of it. */
    private final int requests;
    /** The planned conversations (issue 29), or null for single requests. */
    private final ConversationScript script;
    /** What the arrival driver starts: requests, or conversations when {@link #script} is set. */
    private final int units;
    private final SideProbes probes;
    /** The run's synthetic images (issue 30), encoded before T0; null without {@code --images}. */
    private final ImagePool images;
    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    /** The live checker of the run's stop rules (issue 30). */
    private final StopRuleChecker stopRules;
    /** The stop rule that ended the run early (its own, or a coordinator's), or null. */
    private final AtomicReference<StopTrip> stopped = new AtomicReference<>();
    private StreamingClient client;
    private List<Context> contexts;
    private int slots;
    private WarmupResult warmup = WarmupResult.NONE;
    private RunWarmup warmups;
    private RequestPipeline pipeline;
    private EventFactory events;
    private String runId;
    private String workerId;
    private Instant startedAt;
    private long t0;

    /**
     * @param vertx      the Vert.x whose event loops carry the requests; not null
     * @param plan       the resolved plan; not null
     * @param sink       where the events go (not closed here); not null
     * @param listener   progress callbacks, or null
     * @param control    early stop, or null
     * @param assignment a worker's share, or null for a run sent by one process
     * @param clock      wall and monotonic time ({@link CapClock#system()} in a run: the chunks' scale); not null
     */
    RunLifecycle(Vertx vertx, RunPlan plan, EventSink sink, RunListener listener, RunControl control,
                 ShareAssignment assignment, CapClock clock) {
        this.vertx = vertx;
        this.assignment = assignment;
        this.plan = plan;
        this.config = plan.config();
        this.script = ConversationScripts.of(plan);
        if (script == null) {
            this.requests = assignment == null ? plan.requests() : assignment.share().count(plan.requests());
            this.units = requests;
        } else {
            // a worker's share holds whole conversations: conversation c belongs to share c mod shares
            this.units = assignment == null ? script.conversations()
                    : assignment.share().count(script.conversations());
            this.requests = ConversationScripts.requestsOf(script, assignment == null ? null : assignment.share());
        }
        this.sink = sink;
        this.clock = clock;
        this.listener = new GuardedListener(listener, RunSecrets.of(config, plan.apiKey()));
        this.control = control == null ? new RunControl() : control;
        this.stopRules = new StopRuleChecker(config.stop());
        this.images = images(plan, this.listener);
        this.bodySource = bodySource(config.request().promptSalt());
        BodySource warmupBodies = config.warmup().primeCache() ? bodySource
                : bodySource(PromptBuilder.randomSalt("warm-up", new SecureRandom()));
        this.warmups = new RunWarmup(vertx, plan, bodySource, warmupBodies, this.control, this.listener, clock);
        this.probes = new SideProbes(vertx, config, assignment, this.listener, clock);
    }

    /**
     * Draws and encodes the run's synthetic images before T0, on the calling thread (not an event loop), and says
     * how many and how long they took.
     *
     * @return the pool, or null without {@code --images}
     */
    private static ImagePool images(RunPlan plan, GuardedListener listener) {
        RunConfig c = plan.config();
        if (c.payload().images() == 0) {
            return null;
        }
        ImagePool pool = ImagePool.build(c.payload().images(), c.payload().effectiveImageSizes(),
                c.payload().effectiveImageFormat(), c.identity().seed(),
                c.load().durationS() != null ? 0 : plan.requests());
        listener.notice(pool.summary());
        return pool;
    }

    private BodySource bodySource(String salt) {
        RequestShape rq = config.request();
        return new BodySource(new PromptBuilder(rq.sharedPrefixTokens(), salt),
                new RequestBodyBuilder(config.target().model(), rq.maxTokens(), rq.resolvedThinkingMode(),
                        rq.reasoningEffort(), config.target().endpoint(), rq.extraBody()).withImages(images),
                plan.requestPlan(),
                rq.maxTokens(), config.target().endpoint().streamed() ? null : new io.capstream.loadgen.workload.InputBatch(
                        config.target().model(), config.target().endpoint(), config.payload().effectiveBatch(), salt,
                        rq.extraBody()));
    }

    /** @return the outcome; fails when the run could not start ({@link StoppedBeforeStartException} when stopped) */
    CompletableFuture<RunOutcome> start() {
        try {
            boolean open = config.load().arrival() != ArrivalMode.CLOSED;
            slots = assignment != null ? assignment.slots()
                    : open ? config.load().effectiveMaxInFlight() : config.load().effectiveConcurrency();
            TargetConfig target = config.target();
            // the credentials of a user:password@ travel in the Authorization header (plan.apiKey())
            ClientConfig clientConfig = new ClientConfig(HttpUrls.withoutUserInfo(target.baseUrl()), target.timeoutS(),
                    target.keepAlive(), 2 * Math.min(slots, plan.requests()) + 16, plan.apiKey(), target.endpoint(),
                    target.headers())
                    // a conversation keeps each answer for its next turn; with --tools a tool call is output
                    .withReplies(config.conversation().tools() != null, script != null)
                    .withHttpClient(target.httpClient());
            client = new StreamingClient(vertx, clientConfig, target.tls().clientTls());
            contexts = contexts();
            probes.discoverServerMetrics()
                    .compose(url -> warmups.run(contexts, clientConfig, client, slots))
                    .compose(w -> {
                        warmup = w;
                        return probes.start(contexts);
                    })
                    .onComplete(ar -> {
                        // a share stopped before its start still starts, at once, so that its RunFinished
                        // (nothing sent, interrupted) completes the run's report; a one-process run just ends
                        if (ar.failed() || (control.stopRequested() && assignment == null)) {
                            probes.cancel();
                            client.close();
                            outcome.completeExceptionally(ar.failed() ? ar.cause() : new StoppedBeforeStartException());
                        } else if (assignment == null) {
                            startTimed(open);
                        } else {
                            startAtSharedInstant(open);
                        }
                    });
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            outcome.completeExceptionally(e);
        }
        return outcome;
    }

    /** A share: waits for the shared start instant (at once when it has passed or the share was stopped). */
    private void startAtSharedInstant(boolean open) {
        long delayMs = assignment.startEpochMs() - clock.millis();
        if (delayMs >= 1 && !control.stopRequested()) {
            vertx.setTimer(delayMs, id -> startTimed(open));
        } else {
            startTimed(open);
        }
    }

    private void startTimed(boolean open) {
        try {
            if (assignment == null) {
                startedAt = clock.instant();
                t0 = clock.nanoTime();
            } else {
                // T0 is the shared instant even when this worker starts late (its due requests then queue)
                long lateMs = Math.max(0, clock.millis() - assignment.startEpochMs());
                startedAt = Instant.ofEpochMilli(assignment.startEpochMs());
                t0 = clock.nanoTime() - lateMs * 1_000_000L;
            }
            runId = RunIds.runId(startedAt, config.identity().runId(), config.identity().runIdSuffix());
            workerId = config.identity().workerId() != null ? config.identity().workerId()
                    : "worker-" + UUID.randomUUID();
            events = new EventFactory(runId, workerId, plan, clock);
            StreamingClient c = client;
            pipeline = new RequestPipeline(plan, requests, bodySource, PipelineWiring.sender(c),
                    events, t0, probes.observer(), sink, listener, clock);
            if (stopRules.active()) {
                pipeline.onEnded((r, ended) -> stop(stopRules.ended(r, ended)));
            }
            // a distributed run's coordinator stops this share because another worker tripped a rule
            control.whenRuleStop(why -> stop(new StopTrip(why[0], clock.nanoTime() - t0, why[1], pipeline.done())));
            // an interrupted run's requests in flight get a grace period, then are cancelled, so that the report of
            // what ran is still written within the stop's bound (a fresh user's Ctrl-C during 4,000-token streams
            // waited for them until the bound and lost the report)
            control.whenInterrupted(new InterruptCancel(vertx, c, control.interruptGrace(), listener::notice));
            if (assignment == null) {
                pipeline.emit(events.runStarted(startedAt));
            }
            // each scrape also goes into the run's event stream (a heartbeat with server_samples), in time order
            // with the requests, for the window summaries; the sinks are thread-safe
            EventFactory started = events;
            probes.beginScraping(t0, (epochMs, tMs, samples) -> {
                sink.send(started.serverSamples(epochMs, tMs, samples));
                Double waiting = samples.get(SATURATION_SERIES);
                if (waiting != null && tMs >= 0) {
                    stop(stopRules.serverWaiting((long) (tMs * 1e6), waiting, pipeline.done()));
                }
            });
            listener.raw().onStarted(runId, plan);
            drive(open).whenComplete((x, err) -> finish());
        } catch (RuntimeException e) {
            probes.cancel();
            client.close();
            outcome.completeExceptionally(e);
        }
    }

    /** Starts the arrival driver at T0; @return completes when every request it started has ended */
    private CompletableFuture<Integer> drive(boolean open) {
        LoadShape load = config.load();
        long deadline = !open && load.durationS() != null ? t0 + (long) (load.durationS() * 1e9) : Long.MAX_VALUE;
        long rampUpNs = load.rampUpS() == null ? 0 : (long) (load.rampUpS() * 1e9);
        DriverConfig dc = new DriverConfig(units, slots, t0, deadline, contexts, this::stopping, rampUpNs);
        ArrivalClock arrivalClock = ArrivalClock.of(clock);
        RequestLauncher launcher;
        if (script != null) {
            launcher = new ConversationLauncher(plan, script, ConversationScripts.writer(plan), pipeline, events,
                    arrivalClock, t0, this::stopping,
                    assignment == null ? u -> u : assignment.share()::globalIndex).withImages(images);
        } else {
            launcher = PipelineWiring.launcher(pipeline, assignment == null ? null : assignment.share(),
                    Integer.MAX_VALUE);
        }
        if (!open) {
            ClosedLoop loop = new ClosedLoop(dc, launcher, IoYield.EVENT_LOOP, arrivalClock);
            pipeline.waitingForTurn(loop::waitingForTurn, slots);
            return loop.start();
        }
        long seed = config.identity().seed();
        ArrivalSchedule schedule = load.arrival() == ArrivalMode.TRACE
                ? ArrivalSchedule.ofOffsets(plan.requestPlan().arrivalOffsetsNs())
                : assignment == null ? new ArrivalSchedule(load.arrivalProcess(), seed)
                : assignment.share().schedule(load.arrivalProcess(), seed);
        return new OpenLoop(dc, schedule, launcher, arrivalClock).start();
    }

    /** @return whether no new request may start: the caller stopped the run, or a stop rule tripped */
    private boolean stopping() {
        return control.stopRequested() || stopped.get() != null;
    }

    /**
     * Records the first stop rule that tripped and stops the run: no new request starts, those in flight end. Tells
     * the listener (a notice) and, for the run's own rules, the caller ({@link RunControl#onTrip}).
     *
     * @param trip the trip, or null (nothing tripped)
     */
    private void stop(StopTrip trip) {
        if (trip == null || !stopped.compareAndSet(null, trip)) {
            return;
        }
        listener.notice(trip.describe() + "; no new request starts, those in flight end");
        if (!StopRuleChecker.COORDINATOR.equals(trip.rule())) {
            control.tripped(trip);
        }
    }

    /**
     * @return one event-loop context per core (at most one per Vert.x event loop, at most one per request): the
     *         client never blocks a loop, so more loops than cores would only add wake-ups (each probed by the
     *         self-check's 1 ms timer) without adding capacity
     */
    private List<Context> contexts() {
        int loops = 0;
        for (var ignored : ((VertxInternal) vertx).nettyEventLoopGroup()) {
            loops++;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        int n = Math.max(1, Math.min(Math.min(loops, cores), Math.max(1, plan.requests())));
        List<Context> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(((VertxInternal) vertx).createEventLoopContext());
        }
        return list;
    }

    private void finish() {
        long wall = pipeline.lastEndNs() - t0;
        Instant finishedAt = clock.instant();
        int sent = pipeline.done();
        int failed = pipeline.failed();
        int cancelled = pipeline.cancelled();
        // a time-bounded closed loop that ends at its duration is complete, not interrupted
        // (a conversation's turns not sent because it ended early are accounted for, not missing)
        // a run a stop rule ended is stopped, not interrupted (unless the caller interrupted it too)
        StopTrip stop = stopped.get();
        boolean interrupted = control.interruptRequested()
                || (stop == null && sent + pipeline.unsent() < requests && config.load().durationS() == null);
        client.close();
        probes.stop(wall, warmup, sink.delivery()).onComplete(ar -> {
            SideProbes.Ended ended = ar.result();
            ServerMetricsRecording rec = ended.recording();
            if ("deferred".equals(sink.delivery())) {
                listener.notice("all requests ended; sending the run's held events to Kafka");
            }
            listener.awaitingDelivery(sent);
            sink.flush().whenComplete((u1, e1) -> {
                RunEvent fin = events.runFinished(wall, startedAt, finishedAt, sent, interrupted, sink.undelivered(),
                        ended.check(), assignment, rec);
                ((RunFinished) fin.getPayload()).setStopped(stop == null ? null : stop.toAvro());
                pipeline.emit(fin);
                sink.flush().whenComplete((u2, e2) -> {
                    RunOutcome o = new RunOutcome(runId, workerId, requests, sent, sent - failed - cancelled, failed,
                            sink.undelivered(), interrupted, startedAt, finishedAt, wall, ended.check(), rec,
                            stop == null ? null : stop.toAvro());
                    listener.finished(o);
                    outcome.complete(o);
                });
            });
        });
    }
}

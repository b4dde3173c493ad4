package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import io.capstream.loadgen.arrival.ClosedLoop;
import io.capstream.loadgen.arrival.DriverConfig;
import io.capstream.loadgen.arrival.OpenLoop;
import io.capstream.loadgen.arrival.RequestLauncher;
import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.ErrorTypes;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.selfcheck.SelfCheck;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.loadgen.servermetrics.ServerMetricsScraper;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.warmup.ClientWarmup;
import io.capstream.loadgen.warmup.TargetWarmup;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.SecretMask;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * One run in progress (internal to {@link LoadGenerator}): spec §5 with capstream's arrival
 * processes. Before T0 it warms the client ({@link ClientWarmup}, then {@code --warmup-requests}
 * through {@link TargetWarmup}), collects the start-up garbage and starts the {@link SelfCheck};
 * neither warm-up produces an event. Requests are spread over one event-loop context per Vert.x
 * event loop; bodies come from a {@link BodySource} (large ones on a worker thread, so that the
 * event loops keep reading streams). Body building happens before t0 (excluded from the request's
 * timing, part of its client queue time).
 */
final class RunExecution {
    /** Largest planned context of most loopback warm-up requests, tokens. */
    private static final int WARMUP_PROMPT_TOKENS = 1024;
    private final Vertx vertx;
    private final RunPlan plan;
    private final RunConfig config;
    private final EventSink sink;
    private final RunListener listener;
    private final RunControl control;
    private final BodySource bodySource;
    /** Bodies of the {@code --warmup-requests}: their own prompt salt unless {@link WarmupConfig#primeCache()}. */
    private final BodySource warmupBodySource;
    /** The share a worker executes, or null for a run sent by one process. */
    private final ShareAssignment assignment;
    /** Requests this execution sends: the plan's, or the share's part of it. */
    private final int requests;
    private final RunningMedian ttftMedian = new RunningMedian();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong lastEndNs = new AtomicLong();
    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    private final java.util.concurrent.atomic.AtomicReference<String> firstWarmupError =
            new java.util.concurrent.atomic.AtomicReference<>();
    private StreamingClient client;
    private ClientConfig clientConfig;
    private List<Context> contexts;
    private int slots;
    private EventFactory events;
    private static final java.time.Duration PROBE_TIMEOUT = java.time.Duration.ofSeconds(2);
    private SelfCheck selfCheck;
    /** The metrics URL scraped from T0, or null (off, not found, or not share 0 of a distributed run). */
    private String serverMetricsUrl;
    /** The run's secrets, masked in the notices as in the events. */
    private final SecretMask mask;
    private ServerMetricsScraper scraper;
    private WarmupResult warmup = WarmupResult.NONE;
    /** A closed loop's slots between a request's end and their turn to start the next (progress in flight). */
    private volatile IntSupplier waitingForTurn = () -> 0;
    private String runId;
    private String workerId;
    private Instant startedAt;
    private long t0;

    RunExecution(Vertx vertx, RunPlan plan, EventSink sink, RunListener listener, RunControl control,
                 ShareAssignment assignment) {
        this.vertx = vertx;
        this.assignment = assignment;
        this.requests = assignment == null ? plan.requests() : assignment.share().count(plan.requests());
        this.plan = plan;
        this.config = plan.config();
        this.mask = RunSecrets.of(config, plan.apiKey());
        this.sink = sink;
        this.listener = listener == null ? RunListener.NONE : listener;
        this.control = control == null ? new RunControl() : control;
        this.bodySource = bodySource(config.request().promptSalt());
        this.warmupBodySource = config.warmup().primeCache() ? bodySource
                : bodySource(PromptBuilder.randomSalt("warm-up", new java.security.SecureRandom()));
    }

    private BodySource bodySource(String salt) {
        return new BodySource(new PromptBuilder(config.sharedPrefixTokens(), salt),
                new RequestBodyBuilder(config.model(), config.maxTokens(), config.resolvedThinkingMode(),
                        config.reasoningEffort(), config.endpoint(), config.extraBody()), plan.requestPlan(),
                config.maxTokens());
    }

    CompletableFuture<RunOutcome> start() {
        try {
            boolean open = config.arrival() != ArrivalMode.CLOSED;
            slots = assignment != null ? assignment.slots()
                    : open ? config.effectiveMaxInFlight() : config.effectiveConcurrency();
            // the credentials of a user:password@ travel in the Authorization header (plan.apiKey())
            clientConfig = new ClientConfig(HttpUrls.withoutUserInfo(config.baseUrl()), config.timeoutS(), config.keepAlive(),
                    2 * Math.min(slots, plan.requests()) + 16, plan.apiKey(), config.endpoint(), config.headers());
            client = new StreamingClient(vertx, clientConfig);
            contexts = contexts();
            serverMetricsUrl()
                    .compose(url -> {
                        serverMetricsUrl = url;
                        return warmUp();
                    })
                    .compose(w -> vertx.executeBlocking(() -> {
                        // collect the start-up and warm-up garbage now rather than during the run
                        System.gc();
                        return w;
                    }, false))
                    .compose(w -> SelfCheck.start(vertx, contexts, isLocal(config.baseUrl())).map(sc -> {
                        warmup = w;
                        selfCheck = sc;
                        return sc;
                    }))
                    .compose(sc -> serverMetricsUrl == null ? Future.succeededFuture(sc)
                            : vertx.executeBlocking(() -> {
                                // the first scrape ends before T0: counters' increase is then the run's own work
                                scraper = ServerMetricsScraper.open(serverMetricsUrl,
                                        config.serverMetrics().intervalMs());
                                scraper.baseline();
                                return sc;
                            }, false))
                    .onComplete(ar -> {
                        // a share stopped before its start still starts, at once, so that its RunFinished
                        // (nothing sent, interrupted) completes the run's report; a one-process run just ends
                        if (ar.failed() || (control.stopRequested() && assignment == null)) {
                            if (scraper != null) {
                                scraper.cancel();
                            }
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

    /**
     * Where the endpoint's metrics are scraped: the configured URL, or for auto {@code <base>/metrics} when it
     * answers with Prometheus text (one GET, off the event loops); null when off, not found, or this is a share
     * other than 0 of a distributed run (one worker scrapes for all).
     */
    private Future<String> serverMetricsUrl() {
        ServerMetricsConfig sm = config.serverMetrics();
        if (sm.mode() == ServerMetricsConfig.Mode.OFF || (assignment != null && assignment.share().share() != 0)) {
            return Future.succeededFuture();
        }
        if (sm.mode() == ServerMetricsConfig.Mode.URL) {
            // one look first, so that a wrong URL is said before the run rather than only in the summary
            return vertx.executeBlocking(() -> ServerMetricsScraper.probe(sm.url(), PROBE_TIMEOUT), false).map(why -> {
                notice("server metrics: scraping " + sm.url() + " every " + sm.intervalMs() + " ms during the run"
                        + (why == null ? "" : "; warning: " + why + " (failed scrapes are counted, the run goes on)"));
                return sm.url();
            });
        }
        String url = ServerMetricsConfig.defaultUrl(HttpUrls.withoutUserInfo(config.baseUrl()));
        return vertx.executeBlocking(() -> ServerMetricsScraper.probe(url, PROBE_TIMEOUT), false).map(why -> {
            if (why != null) {
                return null;
            }
            notice("server metrics: " + url + " answers with Prometheus text; scraping it every " + sm.intervalMs()
                    + " ms during the run (--server-metrics off to skip)");
            return url;
        });
    }

    private Future<WarmupResult> warmUp() {
        WarmupConfig wc = config.warmup();
        int n = Math.max(1, plan.requests());
        Future<WarmupResult> f = Future.succeededFuture(WarmupResult.NONE);
        if (wc.clientWarmupS() > 0 && !control.stopRequested()) {
            EventFactory warmEvents = new EventFactory("warmup", "warmup", plan);
            // every 8th warm-up request has the run's own prompt size; the others at most 1,024 tokens (the
            // path is the same, and small bodies let the warm-up run more requests in its time)
            f = ClientWarmup.run(vertx, contexts, ClientWarmup.Settings.forRun(wc.clientWarmupS()), clientConfig,
                    (ctx, k) -> bodySource.body(ctx, k % n, k % 8 == 0 ? plan.contextPlan().planned(k % n)
                            : Math.min(WARMUP_PROMPT_TOKENS, plan.contextPlan().planned(k % n))),
                    control::stopRequested,
                    r -> {
                        if (r.ok()) {
                            warmEvents.completed(0, 0, 0, r);
                        }
                    }).map(w -> {
                        if (w.loopbackRequests() > 0) {
                            notice(String.format(Locale.ROOT, "client warm-up: %,d loopback requests in %.1f s"
                                    + " (%.0f -> %.0f us per request)", w.loopbackRequests(), w.loopbackMs() / 1e3,
                                    w.firstUsPerRequest(), w.lastUsPerRequest()));
                        }
                        return w;
                    });
        }
        int target = wc.targetRequests();
        if (target > 0) {
            f = f.compose(w -> control.stopRequested() ? Future.succeededFuture(w)
                    : TargetWarmup.run(contexts, client,
                            (ctx, k) -> warmupBodySource.body(ctx, n + k, plan.contextPlan().planned(k % n)),
                            target, Math.min(target, slots), control::stopRequested, r -> {
                                if (!r.ok()) {
                                    firstWarmupError.compareAndSet(null, r.error().type() + ": " + r.error().message());
                                }
                            })
                    .map(failedCount -> {
                        notice(String.format(Locale.ROOT, "%d warm-up request(s) sent to the target and discarded"
                                + " (%d failed)", target, failedCount));
                        if (failedCount == target) {
                            notice("warning: every warm-up request failed (first: " + firstWarmupError.get()
                                    + "); the run goes on");
                        }
                        return w.withTarget(target, failedCount);
                    }));
        }
        return f;
    }

    /**
     * A share: waits for the shared start instant (at once when it has passed or the share was stopped), then
     * starts.
     */
    private void startAtSharedInstant(boolean open) {
        long delayMs = assignment.startEpochMs() - System.currentTimeMillis();
        if (delayMs >= 1 && !control.stopRequested()) {
            vertx.setTimer(delayMs, id -> startTimed(open));
        } else {
            startTimed(open);
        }
    }

    private void startTimed(boolean open) {
        try {
            if (assignment == null) {
                startedAt = Instant.now();
                t0 = System.nanoTime();
            } else {
                // T0 is the shared instant even when this worker starts late (its due requests then queue)
                long lateMs = Math.max(0, System.currentTimeMillis() - assignment.startEpochMs());
                startedAt = Instant.ofEpochMilli(assignment.startEpochMs());
                t0 = System.nanoTime() - lateMs * 1_000_000L;
            }
            lastEndNs.set(t0);
            runId = RunIds.runId(startedAt, config.runId(), config.runIdSuffix());
            workerId = config.workerId() != null ? config.workerId() : "worker-" + UUID.randomUUID();
            events = new EventFactory(runId, workerId, plan);
            if (assignment == null) {
                emit(events.runStarted(startedAt));
            }
            if (scraper != null) {
                // each scrape also goes into the run's event stream (a heartbeat with server_samples), in time order
                // with the requests, for the window summaries; the sinks are thread-safe
                EventFactory started = events;
                scraper.begin(t0, (epochMs, tMs, samples) -> sink.send(started.serverSamples(epochMs, tMs, samples)));
            }
            listener.onStarted(runId, plan);
            long deadline = !open && config.durationS() != null
                    ? t0 + (long) (config.durationS() * 1e9) : Long.MAX_VALUE;
            long rampUpNs = config.rampUpS() == null ? 0 : (long) (config.rampUpS() * 1e9);
            DriverConfig dc = new DriverConfig(requests, slots, t0, deadline, contexts, control::stopRequested,
                    rampUpNs);
            RequestLauncher launcher = assignment == null ? this::launch
                    : (local, scheduledNs, ctx, onEnd) -> launch(assignment.share().globalIndex(local), scheduledNs, ctx,
                    onEnd);
            ArrivalSchedule schedule = !open ? null : config.arrival() == ArrivalMode.TRACE
                    ? ArrivalSchedule.ofOffsets(plan.requestPlan().arrivalOffsetsNs())
                    : assignment == null
                    ? new ArrivalSchedule(config.arrival(), config.rateRps(), config.seed())
                    : assignment.share().schedule(config.arrival(), config.rateRps(), config.seed());
            CompletableFuture<Integer> drained;
            if (open) {
                drained = new OpenLoop(dc, schedule, launcher).start();
            } else {
                ClosedLoop loop = new ClosedLoop(dc, launcher);
                // read apart from the in-flight count (another context may be between the two): at most the slots
                waitingForTurn = () -> Math.min(loop.waitingForTurn(), Math.max(0, slots - inFlight.get()));
                drained = loop.start();
            }
            drained.whenComplete((started, err) -> finish());
        } catch (RuntimeException e) {
            if (scraper != null) {
                scraper.cancel();
            }
            client.close();
            outcome.completeExceptionally(e);
        }
    }

    private void notice(String line) {
        try {
            // a notice may quote a server's message (a failed warm-up request): the same redaction as the events
            listener.onNotice(mask.apply(line));
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    /** @return whether the URL's host is a loopback name or address (the target shares this machine) */
    static boolean isLocal(String baseUrl) {
        try {
            String host = URI.create(baseUrl).getHost();
            if (host == null) {
                return false;
            }
            host = host.toLowerCase(Locale.ROOT);
            return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * @return one event-loop context per core (at most one per Vert.x event loop, at most one per
     *         request): the client never blocks a loop, so more loops than cores would only add
     *         wake-ups (each probed by the self-check's 1 ms timer) without adding capacity
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

    private void launch(int index, long scheduledNs, Context ctx, Runnable onEnd) {
        selfCheck.inFlight(inFlight.incrementAndGet());
        bodySource.body(ctx, index, plan.contextPlan().planned(index)).onComplete(ar -> {
            if (ar.failed()) {
                long start = System.nanoTime() - t0;
                RequestError err = ar.cause() instanceof PromptBuilder.PromptTooSmallException
                        ? RequestError.of(ErrorTypes.VALUE_ERROR, PromptBuilder.TOO_SMALL)
                        : RequestError.of("RuntimeError", String.valueOf(ar.cause()));
                ended(events.failed(index, scheduledNs, start, 0, -1, 0, 0, err), null, start - scheduledNs, onEnd);
                return;
            }
            client.execute(ar.result()).onComplete(rr -> {
                RequestResult r = rr.result();
                long start = r.t0Ns() - t0;
                RunEvent ev;
                try {
                    ev = r.ok()
                            ? events.completed(index, scheduledNs, start, r)
                            : events.failed(index, scheduledNs, start, r.e2eNs(), r.httpStatus(), r.contentChunks(),
                            r.reasoningChunks(), r.error());
                } catch (RuntimeException e) {
                    // a result the event cannot hold: still this request's end, so that the run ends too
                    ev = events.failed(index, scheduledNs, start, r.e2eNs(), r.httpStatus(), r.contentChunks(),
                            r.reasoningChunks(), RequestError.of("RuntimeError", String.valueOf(e)));
                    r = null;
                }
                ended(ev, r, start - scheduledNs, onEnd);
            });
        });
    }

    /**
     * @param r       the request's result, or null when it failed before it was sent
     * @param queueNs its client-side queueing, ns
     */
    private void ended(RunEvent ev, RequestResult r, long queueNs, Runnable onEnd) {
        long now = System.nanoTime();
        lastEndNs.accumulateAndGet(now, Math::max);
        boolean ok = r != null && r.ok();
        if (ok) {
            ttftMedian.add(r.ttftNs() / 1e6);
        } else {
            failed.incrementAndGet();
        }
        selfCheck.request(r == null ? -1 : r.e2eNs(), r == null ? 0 : r.contentChunks() + r.reasoningChunks());
        emit(ev);
        int d = done.incrementAndGet();
        inFlight.decrementAndGet();
        if (d >= requests) {
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

    private void progress(int done, long now) {
        try {
            listener.onProgress(new RunProgress(done, requests, failed.get(), inFlight.get() + waitingForTurn.getAsInt(),
                    ttftMedian.median(), now - t0));
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    private void emit(RunEvent ev) {
        sink.send(ev);
        try {
            listener.onEvent(ev);
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    private void finish() {
        long wall = lastEndNs.get() - t0;
        Instant finishedAt = Instant.now();
        int sent = done.get();
        // a time-bounded closed loop that ends at its duration is complete, not interrupted
        boolean interrupted = control.stopRequested() || (sent < requests && config.durationS() == null);
        client.close();
        ServerMetricsScraper scraping = scraper;
        Future<ServerMetricsRecording> recorded = scraping == null ? Future.succeededFuture()
                : vertx.executeBlocking(scraping::stop, false);
        recorded.compose(r -> selfCheck.stop(wall, warmup, sink.delivery())).onComplete(check -> {
            ServerMetricsRecording rec = recorded.result();
            ClientCheck cc = check.succeeded() ? check.result() : null;
            if ("deferred".equals(sink.delivery())) {
                notice("all requests ended; sending the run's held events to Kafka");
            }
            try {
                listener.onAwaitingDelivery(sent);
            } catch (RuntimeException ignored) {
                // a listener's bug must not stop the run
            }
            sink.flush().whenComplete((u1, e1) -> {
                long undelivered = sink.undelivered();
                emit(events.runFinished(wall, startedAt, finishedAt, sent, interrupted, undelivered, cc, assignment, rec));
                sink.flush().whenComplete((u2, e2) -> {
                    RunOutcome o = new RunOutcome(runId, workerId, requests, sent, sent - failed.get(),
                            failed.get(), sink.undelivered(), interrupted, startedAt, finishedAt, wall, cc, rec);
                    try {
                        listener.onFinished(o);
                    } catch (RuntimeException ignored) {
                        // a listener's bug must not change the outcome
                    }
                    outcome.complete(o);
                });
            });
        });
    }
}

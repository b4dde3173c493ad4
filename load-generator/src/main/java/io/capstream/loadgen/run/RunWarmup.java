package io.capstream.loadgen.run;

import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.selfcheck.SelfCheck;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.warmup.ClientWarmup;
import io.capstream.loadgen.warmup.TargetWarmup;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A run's two warm-ups before T0, neither of which produces an event of the run: the client's
 * ({@link ClientWarmup}: loopback requests until the request path stops getting faster, bounded by
 * {@code --client-warmup} seconds on the clock, then up to {@value PipelineWarmup#REQUESTS} more through the run's
 * own driver and pipeline ({@link PipelineWarmup}), with a {@link SelfCheck} of its own running beside them and
 * discarded, so that the run's driver and self-check are compiled before T0), then {@code --warmup-requests} sent to the
 * target and discarded ({@link TargetWarmup}). Each says what it did in a notice; a stop request skips what has
 * not begun.
 */
final class RunWarmup {
    /** Largest planned context of most loopback warm-up requests, tokens. */
    static final int WARMUP_PROMPT_TOKENS = 1024;
    /** With {@code --images}, every this many client warm-up requests carries the run's images (issue 30). */
    static final int IMAGES_EVERY = 32;
    /**
     * Share of {@code --client-warmup} the loopback batches may take; the requests through the run's driver
     * ({@link PipelineWarmup}) start within the rest, so the whole client warm-up keeps to the bound (give or take
     * the requests in flight at its end).
     */
    static final double LOOPBACK_SHARE = 0.8;
    private final Vertx vertx;
    private final RunPlan plan;
    private final BodySource bodies;
    private final BodySource warmupBodies;
    private final RunControl control;
    private final GuardedListener listener;
    private final CapClock clock;
    private final AtomicReference<String> firstError = new AtomicReference<>();
    /** Requests of the warm-up through the run's driver ({@link PipelineWarmup}); set before the notice. */
    private volatile int driverRequests;

    /**
     * @param vertx        the run's Vert.x; not null
     * @param plan         the run's plan; not null
     * @param bodies       the run's bodies (the loopback warm-up exercises their building); not null
     * @param warmupBodies the bodies of the target warm-up (their own prompt salt unless the cache is primed); not null
     * @param control      the run's stop; not null
     * @param listener     told the notices; not null
     * @param clock        the client warm-up's time bound; not null
     */
    RunWarmup(Vertx vertx, RunPlan plan, BodySource bodies, BodySource warmupBodies, RunControl control,
              GuardedListener listener, CapClock clock) {
        this.vertx = vertx;
        this.plan = plan;
        this.bodies = bodies;
        this.warmupBodies = warmupBodies;
        this.control = control;
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Runs the warm-ups the run's {@link WarmupConfig} asks for.
     *
     * @param contexts     the run's event-loop contexts; not null
     * @param clientConfig the run's client settings (the loopback client copies its timeout and keep-alive); not null
     * @param client       the run's client (the target warm-up's requests); not null
     * @param slots        the run's slots (at most this many target warm-up requests at once)
     * @return what ran; never fails because a warm-up request failed
     */
    Future<WarmupResult> run(List<Context> contexts, ClientConfig clientConfig, StreamingClient client, int slots) {
        WarmupConfig wc = plan.config().warmup();
        int n = Math.max(1, plan.requests());
        Future<WarmupResult> f = Future.succeededFuture(WarmupResult.NONE);
        if (wc.clientWarmupS() > 0 && !control.stopRequested()) {
            EventFactory warmEvents = new EventFactory("warmup", "warmup", plan, clock);
            // with --images only every IMAGES_EVERY-th warm-up request carries them: the path is the same, and a
            // 100-request batch of megabyte bodies would take the loopback tens of seconds
            BodySource plainBodies = bodies.withoutImages();
            // every 8th warm-up request has the run's own prompt size; the others at most 1,024 tokens (the
            // path is the same, and small bodies let the warm-up run more requests in its time)
            // the self-check's probe runs during the warm-up too (its result discarded), so that its code is compiled
            // before T0 and not by a JIT burst on the event loops' core during the run's first wave
            // the loopback batches get LOOPBACK_SHARE of the bound, the requests through the run's driver the rest
            long warmStartNs = clock.nanoTime();
            ClientWarmup.Settings settings = ClientWarmup.Settings.forRun(wc.clientWarmupS() * LOOPBACK_SHARE);
            f = SelfCheck.start(vertx, contexts, false).compose(warmCheck -> ClientWarmup.run(vertx, contexts, settings,
                    clientConfig,
                    (ctx, k) -> (k % IMAGES_EVERY == 0 ? bodies : plainBodies).body(ctx, k % n, k % 8 == 0
                            ? plan.contextPlan().planned(k % n)
                            : Math.min(WARMUP_PROMPT_TOKENS, plan.contextPlan().planned(k % n))),
                    control::stopRequested,
                    r -> {
                        warmCheck.request(1, r.ok() ? 1 : 0);
                        if (r.ok()) {
                            warmEvents.completed(0, 0, 0, r);
                        }
                    }, clock).compose(w -> throughDriver(w, contexts, clientConfig, slots, plainBodies, warmCheck,
                            wc.clientWarmupS() - (clock.nanoTime() - warmStartNs) / 1e9))
                    .compose(w -> warmCheck.stop(1, w, "deferred").map(check -> w).otherwise(w))).map(w -> {
                        if (w.loopbackRequests() > 0) {
                            // conversation runs and unstreamed endpoints send nothing through the driver
                            int driven = driverRequests;
                            listener.notice(String.format(Locale.ROOT, "client warm-up: %,d loopback requests in"
                                    + " %.1f s (%.0f -> %.0f us per request%s)", w.loopbackRequests(),
                                    w.loopbackMs() / 1e3, w.firstUsPerRequest(), w.lastUsPerRequest(), driven == 0
                                    ? "" : String.format(Locale.ROOT, "; the last %,d through the run's driver",
                                    driven)));
                        }
                        return w;
                    });
        }
        int target = wc.targetRequests();
        if (target > 0) {
            f = f.compose(w -> control.stopRequested() ? Future.succeededFuture(w)
                    : TargetWarmup.run(contexts, client,
                            (ctx, k) -> warmupBodies.body(ctx, n + k, plan.contextPlan().planned(k % n)),
                            warmupTraceHeaders(), target, Math.min(target, slots), control::stopRequested, r -> {
                                if (!r.ok()) {
                                    firstError.compareAndSet(null, r.error().type() + ": " + r.error().message());
                                }
                            })
                    .map(failedCount -> {
                        listener.notice(String.format(Locale.ROOT, "%d warm-up request(s) sent to the target and"
                                + " discarded (%d failed)", target, failedCount));
                        if (failedCount == target) {
                            listener.notice("warning: every warm-up request failed (first: " + firstError.get()
                                    + "); the run goes on");
                        }
                        return w.withTarget(target, failedCount);
                    }));
        }
        return f;
    }

    /**
     * After the loopback batches, the {@link PipelineWarmup}: loopback requests through the run's own driver and
     * pipeline (streamed endpoints, single-request runs), counted in the loopback warm-up's requests and time.
     *
     * @param w         what the loopback batches did
     * @param bodies    the warm-up's bodies (without images)
     * @param warmCheck the warm-up's own self-check, told of each request
     * @param seconds   what is left of {@code --client-warmup}, seconds: no request starts after it
     * @return {@code w} with the driver's requests and time added; {@code w} when the batches did not run
     */
    private Future<WarmupResult> throughDriver(WarmupResult w, List<Context> contexts, ClientConfig clientConfig,
                                               int slots, BodySource bodies, SelfCheck warmCheck,
                                               double seconds) {
        // a conversation run's driver launches turns (ConversationLauncher), not the pipeline's single requests
        if (w.loopbackRequests() == 0 || !plan.config().target().endpoint().streamed()
                || ConversationScripts.of(plan) != null) {
            return Future.succeededFuture(w);
        }
        long startNs = clock.nanoTime();
        return PipelineWarmup.run(vertx, contexts, plan, bodies, clientConfig, slots,
                SideProbes.observerOf(warmCheck), control::stopRequested, Math.max(0, seconds), clock).map(k -> {
                    driverRequests = k;
                    return new WarmupResult(w.loopbackRequests() + k,
                            w.loopbackMs() + (clock.nanoTime() - startNs) / 1e6, w.firstUsPerRequest(),
                            w.lastUsPerRequest(), w.targetRequests(), w.targetFailed());
                });
    }

    /**
     * The trace headers of the target warm-up's requests (issue 33): the run's {@code traceparent} and
     * {@code X-Request-Id} scheme ({@link ServerViews}) with the request id {@code <run id>-warmup-<k>}, the run id
     * being {@code --run-id} or the one the run's start would get at the warm-up's start (the run's own id is set at
     * T0, after the warm-up); none with {@code --no-trace-headers}.
     *
     * @return headers of warm-up request k
     */
    private java.util.function.IntFunction<java.util.Map<String, String>> warmupTraceHeaders() {
        List<String> names = ServerViews.sentNames(plan.config().target());
        if (names.isEmpty()) {
            return k -> java.util.Map.of();
        }
        String prefix = RunIds.runId(clock.instant(), plan.config().identity().runId(),
                plan.config().identity().runIdSuffix()) + "-warmup";
        return k -> ServerViews.headers(ServerViews.ids(names, prefix, k), java.util.Map.of());
    }
}

package io.capstream.loadgen.run;

import io.capstream.loadgen.emit.EventSink;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Runs the capacity protocol against one endpoint (spec §1–§6): resolves the plan (probe, cap,
 * context plan), emits {@code RunStarted}, drives the requests with the configured arrival process
 * on the Vert.x event loops, emits one {@code RequestCompleted} or {@code RequestFailed} per request
 * and finally {@code RunFinished}. One request's failure never aborts the run. Thread-safe; one
 * instance can run several runs concurrently.
 */
public final class LoadGenerator {
    private final Vertx vertx;
    private final Function<String, String> env;
    private final CapClock clock;

    /**
     * @param vertx the Vert.x instance whose event loops carry the requests (not closed by this class)
     */
    public LoadGenerator(Vertx vertx) {
        this(vertx, System::getenv);
    }

    /**
     * @param vertx the Vert.x instance (not closed by this class)
     * @param env   environment lookup for {@code --api-key-env} (tests inject their own)
     */
    public LoadGenerator(Vertx vertx, Function<String, String> env) {
        this(vertx, env, CapClock.system());
    }

    /**
     * @param vertx the Vert.x instance (not closed by this class)
     * @param env   environment lookup for {@code --api-key-env} (tests inject their own)
     * @param clock the runs' wall and monotonic time: T0, the events' stamps, a share's start instant, the
     *              warm-up's bound ({@link CapClock#system()}: its monotonic time is that of the chunk stamps); not null
     */
    public LoadGenerator(Vertx vertx, Function<String, String> env, CapClock clock) {
        this.vertx = vertx;
        this.env = env;
        this.clock = clock;
    }

    /**
     * Validates the config and resolves the plan: probes {@code /models} when
     * {@code maxModelLen == 0}, computes the cap and the context plan. Sends no chat request.
     *
     * @param config run parameters
     * @return the plan; fails with {@link UsageException} for invalid parameters
     */
    public CompletableFuture<RunPlan> prepare(RunConfig config) {
        return RunPlanner.plan(vertx, config, env);
    }

    /**
     * As {@link #prepare(RunConfig)}, with the endpoint check's verdict optional: a monitoring loop records an
     * endpoint that is down as failed requests instead of stopping (the problem is then the plan's warning).
     *
     * @param config        run parameters
     * @param endpointFatal whether an endpoint no request could reach fails the preparation
     * @return the plan; fails with {@link UsageException} for invalid parameters
     */
    public CompletableFuture<RunPlan> prepare(RunConfig config, boolean endpointFatal) {
        return RunPlanner.plan(vertx, config, env, endpointFatal);
    }

    /**
     * {@link #prepare} then {@link #run(RunPlan, EventSink, RunListener, RunControl)}.
     *
     * @param config   run parameters
     * @param sink     where events go (not closed by this method)
     * @param listener progress callbacks (event-loop threads; must not block)
     * @return the outcome; fails with {@link UsageException} before any request when the parameters are invalid
     */
    public CompletableFuture<RunOutcome> run(RunConfig config, EventSink sink, RunListener listener) {
        return prepare(config).thenCompose(plan -> run(plan, sink, listener, new RunControl()));
    }

    /**
     * Runs a prepared plan. The future completes after RunFinished has been handed to the sink and
     * the sink has flushed (so {@link RunOutcome#eventsUndelivered()} is final for the request events).
     *
     * @param plan     the resolved plan
     * @param sink     where events go (not closed by this method)
     * @param listener progress callbacks (event-loop threads; must not block)
     * @param control  early stop
     * @return the outcome
     */
    public CompletableFuture<RunOutcome> run(RunPlan plan, EventSink sink, RunListener listener, RunControl control) {
        return new RunLifecycle(vertx, plan, sink, listener, control, null, clock).start();
    }

    /**
     * Runs one share of a distributed run's plan (a {@code capstream worker}): only the share's
     * request indices, at its slots, from its shared start instant (waiting for it after the warm-up;
     * a late start keeps the instant as T0, so that an open loop's due requests queue), emitting no
     * {@code RunStarted} (the coordinator did) and one {@code RunFinished} with the share and the clock
     * offset. {@code plan.config().runId()} must be the run's id.
     *
     * @param plan       the resolved plan of the whole run
     * @param assignment the share, its slots and start instant; not null
     * @param sink       where events go (not closed by this method)
     * @param listener   progress callbacks (event-loop threads; must not block), or null
     * @param control    early stop, or null
     * @return the outcome of the share ({@link RunOutcome#requestsPlanned()} = the share's count)
     * @throws IllegalArgumentException when the plan has no run id
     */
    public CompletableFuture<RunOutcome> runShare(RunPlan plan, ShareAssignment assignment, EventSink sink,
                                                  RunListener listener, RunControl control) {
        if (plan.config().identity().runId() == null || assignment == null) {
            throw new IllegalArgumentException("a share needs the run's id and an assignment");
        }
        return new RunLifecycle(vertx, plan, sink, listener, control, assignment, clock).start();
    }
}

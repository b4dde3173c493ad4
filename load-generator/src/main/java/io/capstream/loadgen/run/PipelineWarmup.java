package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalClock;
import io.capstream.loadgen.arrival.ClosedLoop;
import io.capstream.loadgen.arrival.DriverConfig;
import io.capstream.loadgen.arrival.IoYield;
import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.warmup.LoopbackStreamServer;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The last step of the client warm-up (issue 33 item 4): requests to an in-process {@link LoopbackStreamServer} sent
 * through the run's own closed-loop driver ({@link ClosedLoop}) and {@link RequestPipeline}, with the run's trace
 * headers, cancellations and event building, so that the code a run executes per request and per slot is compiled
 * before T0 and not by the JIT on the event loops' core during the run's first waves (the loopback batches of
 * {@link io.capstream.loadgen.warmup.ClientWarmup} use a driver of their own). Their events go to a sink of their
 * own and are dropped; the run's sink, listener, progress and stop rules never see them.
 *
 * <p>The warm-up client is the run's ({@link ClientConfig}: keep-alive, tools, replies, HTTP client) pointed at the
 * loopback server, without the run's key or {@code -H} headers, on the chat endpoint (the loopback server streams
 * chat chunks).
 */
final class PipelineWarmup {
    /** Requests sent through the run's driver, at most. */
    static final int REQUESTS = 1_000;
    /** Requests in flight at once, at most (the run's concurrency when lower). */
    static final int SLOTS = 32;

    private PipelineWarmup() {
    }

    /**
     * Sends up to {@link #REQUESTS} loopback requests through a {@link RequestPipeline} of the run's plan and bodies.
     *
     * @param vertx      the run's Vert.x; not null
     * @param contexts   the run's event-loop contexts; not empty
     * @param plan       the run's plan (bodies' planned contexts, trace headers, cancellations); not null
     * @param bodies     the bodies to send (request k gets the run's body {@code k mod requests}); not null
     * @param template   the run's client settings; not null
     * @param slots      the run's slots (the warm-up uses at most {@link #SLOTS})
     * @param observer   told of each warm-up request (the warm-up's own, discarded self-check); not null
     * @param stop       true once the run was asked to stop: no further warm-up request starts
     * @param maxSeconds no warm-up request starts after this many seconds on {@code clock}, &gt;= 0 (0: none)
     * @param clock      the warm-up's clock (the system clock in a run); not null
     * @return the number of requests that ended; never fails (a problem ends the warm-up with what ran, or 0)
     */
    static Future<Integer> run(Vertx vertx, List<Context> contexts, RunPlan plan, BodySource bodies,
                               ClientConfig template, int slots, RequestPipeline.Observer observer,
                               BooleanSupplier stop, double maxSeconds, CapClock clock) {
        if (stop.getAsBoolean()) {
            return Future.succeededFuture(0);
        }
        int n = Math.max(1, plan.requests());
        int inFlight = Math.max(1, Math.min(SLOTS, slots));
        return LoopbackStreamServer.start(vertx).compose(server -> {
            StreamingClient client = new StreamingClient(vertx, new ClientConfig(server.baseUrl(),
                    template.timeoutS(), template.keepAlive(), 2 * inFlight + 16, ApiKey.none(), ApiEndpoint.CHAT,
                    List.of(), template.toolsSent(), template.keepReply(), template.httpClient()));
            long t0 = clock.nanoTime();
            // the sender, the launcher and the progress's waiting slots are the run's own classes (see
            // PipelineWiring): a lambda of the warm-up's own would make the JIT discard at T0 what it compiled
            RequestPipeline pipeline = new RequestPipeline(plan, REQUESTS, bodies, PipelineWiring.sender(client),
                    new EventFactory("warmup", "warmup", plan, clock), t0, observer, new InMemoryEventSink(),
                    new GuardedListener(RunListener.NONE, SecretMask.NONE), clock);
            DriverConfig dc = new DriverConfig(REQUESTS, inFlight, t0, t0 + (long) (maxSeconds * 1e9), contexts,
                    stop, 0);
            ClosedLoop loop = new ClosedLoop(dc, PipelineWiring.launcher(pipeline, null, n), IoYield.EVENT_LOOP,
                    ArrivalClock.of(clock));
            pipeline.waitingForTurn(loop::waitingForTurn, inFlight);
            return Future.fromCompletionStage(loop.start()).map(started -> pipeline.done())
                    .onComplete(x -> {
                        client.close();
                        server.close();
                    });
        }).recover(t -> Future.succeededFuture(0));
    }
}

package io.capstream.loadgen.arrival;

import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task on a context's event loop once the loop has handled the I/O that is ready now. A
 * closed loop's first wave uses it between slots: each slot's request is started (t0, connect)
 * and its connection completed and sent before the next slot takes its t0, as a thread per request
 * does in the reference, instead of stamping every t0 of the wave first and serving their
 * connections only after the whole wave was launched (bench/fidelity: at 64 streams the wave's
 * first request then waited ~13 ms for the 63 launches after it).
 *
 * <p>The default, {@link #EVENT_LOOP}, schedules the task with a zero delay on the context's Netty
 * event loop: Netty moves due scheduled tasks to the task queue once per loop iteration, before the
 * tasks run and after the I/O step, so the task runs in the next iteration, after that iteration's
 * I/O. A context that is not an event-loop context gets {@link Context#runOnContext}.
 */
@FunctionalInterface
public interface IoYield {
    /** After the ready I/O of the context's event loop, on that context. */
    IoYield EVENT_LOOP = (ctx, task) -> {
        if (ctx instanceof ContextInternal ci && ctx.isEventLoopContext()) {
            ci.nettyEventLoop().schedule(() -> ci.dispatch(v -> task.run()), 0, TimeUnit.NANOSECONDS);
        } else {
            ctx.runOnContext(v -> task.run());
        }
    };

    /** Runs at once on the same turn, as {@link Context#runOnContext} does (no I/O in between). */
    IoYield NONE = (ctx, task) -> ctx.runOnContext(v -> task.run());

    /**
     * @param ctx  the event-loop context to run on (not null)
     * @param task what to run there (not null); its exceptions go to the context's exception handler
     */
    void afterIo(Context ctx, Runnable task);
}

package io.capstream.loadgen.warmup;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/** Builds the body of warm-up request k on the given context (the run's BodySource behind it). */
@FunctionalInterface
public interface WarmupBodies {
    /**
     * @param ctx the request's event-loop context
     * @param k   the warm-up request's sequence number, from 0
     * @return its body
     */
    Future<Buffer> body(Context ctx, int k);
}

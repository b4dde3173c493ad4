package io.capstream.loadgen.run;

import io.capstream.loadgen.emit.EventSink;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;

/** One run in progress (internal to {@link LoadGenerator}). */
final class RunExecution {
    RunExecution(Vertx vertx, RunPlan plan, EventSink sink, RunListener listener, RunControl control) {
    }

    CompletableFuture<RunOutcome> start() {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not yet implemented"));
    }
}

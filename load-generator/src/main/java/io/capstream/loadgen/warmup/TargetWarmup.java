package io.capstream.loadgen.warmup;

import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * {@code --warmup-requests N}: N requests to the run's own target before T0, discarded (no event,
 * no report row), as vLLM's {@code --num-warmups} and AIPerf's warm-up requests. They warm the
 * target's and the client's connection paths; their prompts carry request indices after the plan's
 * (n, n+1, ...) so that no measured prompt is sent twice. Each carries the headers the caller gives it (the run's trace
 * headers with a warm-up request id, issue 33).
 */
public final class TargetWarmup {
    private TargetWarmup() {
    }

    /**
     * @param contexts    the run's event-loop contexts
     * @param client      the run's client (same target, key and keep-alive setting)
     * @param bodies      body of warm-up request k (k = 0..count-1; the caller maps k to a prompt)
     * @param headers     headers of warm-up request k only; not null, returning non-null (empty for none)
     * @param count       requests (&gt;= 1)
     * @param concurrency requests in flight at once
     * @param stop        true once the run was asked to stop: no further request starts
     * @param onResult    every result, on the event loop
     * @return how many failed (requests a stop kept from starting count as neither)
     */
    public static Future<Integer> run(List<Context> contexts, StreamingClient client, WarmupBodies bodies,
                                      IntFunction<Map<String, String>> headers, int count, int concurrency,
                                      BooleanSupplier stop, Consumer<RequestResult> onResult) {
        return RequestBatch.run(contexts, client, bodies, headers, 0, count, concurrency, stop, onResult)
                .map(RequestBatch.Outcome::failed);
    }
}

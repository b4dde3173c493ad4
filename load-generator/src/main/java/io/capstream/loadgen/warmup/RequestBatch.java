package io.capstream.loadgen.warmup;

import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A closed loop of warm-up requests: {@code count} requests through a {@link StreamingClient}, at
 * most {@code concurrency} at once, slots spread round-robin over the given event-loop contexts.
 * A stop request starts no further request; the batch ends when the started ones have ended.
 * Nothing here is measured for a report; the caller gets each result and the batch's wall time.
 */
final class RequestBatch {
    /**
     * How a batch went.
     *
     * @param wallNs  wall time from the first start to the last end, ns
     * @param started requests started (fewer than asked when a stop came)
     * @param failed  failed requests
     */
    record Outcome(long wallNs, int started, int failed) {
    }

    private RequestBatch() {
    }

    /** One batch in progress. */
    private static final class Run {
        final StreamingClient client;
        final WarmupBodies bodies;
        final IntFunction<Map<String, String>> headers;
        final int first;
        final int count;
        final BooleanSupplier stop;
        final Consumer<RequestResult> onResult;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger slotsLeft;
        final AtomicInteger failed = new AtomicInteger();
        final long start = System.nanoTime();
        final Promise<Outcome> done = Promise.promise();

        Run(StreamingClient client, WarmupBodies bodies, IntFunction<Map<String, String>> headers, int first, int count,
            int slots, BooleanSupplier stop, Consumer<RequestResult> onResult) {
            this.client = client;
            this.bodies = bodies;
            this.headers = headers;
            this.first = first;
            this.count = count;
            this.stop = stop;
            this.onResult = onResult;
            this.slotsLeft = new AtomicInteger(slots);
        }

        void take(Context ctx) {
            int k = stop.getAsBoolean() ? count : next.getAndIncrement();
            if (k >= count) {
                if (slotsLeft.decrementAndGet() == 0) {
                    done.tryComplete(new Outcome(System.nanoTime() - start, Math.min(next.get(), count), failed.get()));
                }
                return;
            }
            bodies.body(ctx, first + k).onComplete(b -> {
                if (b.failed()) {
                    failed.incrementAndGet();
                    take(ctx);
                    return;
                }
                client.execute(b.result(), headers.apply(first + k)).onComplete(r -> {
                    if (!r.result().ok()) {
                        failed.incrementAndGet();
                    }
                    try {
                        onResult.accept(r.result());
                    } catch (RuntimeException ignored) {
                        // a warm-up consumer's failure must not stop the warm-up
                    }
                    take(ctx);
                });
            });
        }
    }

    /**
     * @param contexts    event-loop contexts (not empty)
     * @param client      the client (its callbacks run on the context a request is started from)
     * @param bodies      body of request k
     * @param headers     headers of request k only (e.g. its trace headers); not null, returning non-null
     * @param first       sequence number of the batch's first request
     * @param count       requests in the batch (&gt;= 1)
     * @param concurrency slots (&gt;= 1)
     * @param stop        true once the run was asked to stop (checked before each start)
     * @param onResult    called on the event loop with every result (must not block)
     * @return completes when every started request of the batch has ended
     */
    static Future<Outcome> run(List<Context> contexts, StreamingClient client, WarmupBodies bodies,
                               IntFunction<Map<String, String>> headers, int first, int count, int concurrency,
                               BooleanSupplier stop, Consumer<RequestResult> onResult) {
        int slots = Math.max(1, Math.min(concurrency, count));
        Run run = new Run(client, bodies, headers, first, count, slots, stop, onResult);
        for (int s = 0; s < slots; s++) {
            Context ctx = contexts.get(s % contexts.size());
            ctx.runOnContext(v -> run.take(ctx));
        }
        return run.done.future();
    }
}

package io.capstream.loadgen.warmup;

import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A closed loop of warm-up requests: {@code count} requests through a {@link StreamingClient}, at
 * most {@code concurrency} at once, slots spread round-robin over the given event-loop contexts.
 * Nothing here is measured for a report; the caller gets each result and the batch's wall time.
 */
final class RequestBatch {
    /** How a batch went. @param wallNs wall time from the first start to the last end, ns @param failed failed requests */
    record Outcome(long wallNs, int failed) {
    }

    private RequestBatch() {
    }

    /**
     * @param contexts    event-loop contexts (not empty)
     * @param client      the client (its callbacks run on the context a request is started from)
     * @param bodies      body of request k
     * @param first       sequence number of the batch's first request
     * @param count       requests in the batch (&gt;= 1)
     * @param concurrency slots (&gt;= 1)
     * @param onResult    called on the event loop with every result (must not block)
     * @return completes when every request of the batch has ended
     */
    static Future<Outcome> run(List<Context> contexts, StreamingClient client, WarmupBodies bodies, int first, int count,
                               int concurrency, Consumer<RequestResult> onResult) {
        Promise<Outcome> done = Promise.promise();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        int slots = Math.max(1, Math.min(concurrency, count));
        for (int s = 0; s < slots; s++) {
            Context ctx = contexts.get(s % contexts.size());
            ctx.runOnContext(v -> take(ctx, client, bodies, first, count, next, ended, failed, onResult, start, done));
        }
        return done.future();
    }

    private static void take(Context ctx, StreamingClient client, WarmupBodies bodies, int first, int count,
                             AtomicInteger next, AtomicInteger ended, AtomicInteger failed,
                             Consumer<RequestResult> onResult, long start, Promise<Outcome> done) {
        int k = next.getAndIncrement();
        if (k >= count) {
            return;
        }
        Runnable again = () -> {
            if (ended.incrementAndGet() == count) {
                done.tryComplete(new Outcome(System.nanoTime() - start, failed.get()));
            } else {
                take(ctx, client, bodies, first, count, next, ended, failed, onResult, start, done);
            }
        };
        bodies.body(ctx, first + k).onComplete(b -> {
            if (b.failed()) {
                failed.incrementAndGet();
                again.run();
                return;
            }
            client.execute(b.result()).onComplete(r -> {
                if (!r.result().ok()) {
                    failed.incrementAndGet();
                }
                try {
                    onResult.accept(r.result());
                } catch (RuntimeException ignored) {
                    // a warm-up consumer's failure must not stop the warm-up
                }
                again.run();
            });
        });
    }
}

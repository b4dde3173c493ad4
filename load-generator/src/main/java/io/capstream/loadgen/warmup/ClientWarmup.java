package io.capstream.loadgen.warmup;

import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.StreamingClient;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Warms the client before a run's T0, so that the first timed requests do not pay for class
 * loading, JIT compilation and first-use initialisation (a cold one-request run added ~200 ms to
 * its TTFT): the whole request path (connect, upload, SSE framing, chunk JSON decoding, timestamps
 * and, through {@code onResult}, event building) runs in batches against a
 * {@link LoopbackStreamServer} until the wall time per request stops falling, bounded in time.
 *
 * <p>Stop rule: after at least {@link Settings#minRequests()} requests, when
 * {@value #FLAT_BATCHES} batches in a row were not at least 5% faster per request than the best
 * batch before them and the JIT compilers spent less than 5% of the last batch's wall time
 * compiling ({@link CompilationMXBean}); or at {@link Settings#maxSeconds()} (checked after each
 * batch); or at {@link Settings#maxRequests()}. Warm-up requests run {@link Settings#concurrency()}
 * at a time whatever the run's concurrency, so a concurrency-1 run is warmed as fast as any.
 */
public final class ClientWarmup {
    /** Batches in a row without improvement that end the warm-up. */
    static final int FLAT_BATCHES = 3;
    /** Relative improvement per request that counts as "still falling" (5%). */
    static final double IMPROVEMENT = 0.05;
    /** Share of a batch's wall time spent in JIT compilation below which the JIT counts as settled. */
    static final double JIT_SETTLED = 0.05;

    /**
     * @param maxSeconds    upper bound of the warm-up, seconds (&gt; 0)
     * @param minRequests   requests before the stop rule applies
     * @param maxRequests   upper bound of requests
     * @param batchRequests requests per batch
     * @param concurrency   requests in flight at once
     */
    public record Settings(double maxSeconds, int minRequests, int maxRequests, int batchRequests, int concurrency) {
        /**
         * @param maxSeconds the time bound, seconds
         * @return the defaults: at least 1,000 and at most 200,000 requests in batches of 100, 16 in flight
         */
        public static Settings forRun(double maxSeconds) {
            return new Settings(maxSeconds, 1_000, 200_000, 100, 16);
        }
    }

    private ClientWarmup() {
    }

    /**
     * Runs the loopback warm-up. The client uses {@code template}'s timeout and keep-alive setting
     * (the run's), never its API key.
     *
     * @param vertx    Vert.x of the contexts
     * @param contexts the run's event-loop contexts
     * @param s        bounds
     * @param template the run's client settings
     * @param bodies   body of warm-up request k (the run's body builder)
     * @param stop     true once the run was asked to stop: no further warm-up request starts
     * @param onResult every result, on the event loop (the caller exercises its event building)
     * @param clock    the clock of the time bound ({@link CapClock#system()} in a run); not null
     * @return what ran; never fails (a warm-up problem ends the warm-up early)
     */
    public static Future<WarmupResult> run(Vertx vertx, List<Context> contexts, Settings s, ClientConfig template,
                                           WarmupBodies bodies, BooleanSupplier stop, Consumer<RequestResult> onResult,
                                           CapClock clock) {
        return LoopbackStreamServer.start(vertx).compose(server -> {
            StreamingClient client = new StreamingClient(vertx, new ClientConfig(server.baseUrl(), template.timeoutS(),
                    template.keepAlive(), 2 * s.concurrency() + 16, ApiKey.none()).withHttpClient(template.httpClient()));
            Promise<WarmupResult> result = Promise.promise();
            State st = new State(s, clock);
            next(contexts, client, bodies, stop, onResult, st, result);
            return result.future().onComplete(x -> {
                client.close();
                server.close();
            });
        }).recover(t -> Future.succeededFuture(WarmupResult.NONE));
    }

    /** Progress of one warm-up and its stop rule. */
    static final class State {
        final Settings s;
        final CapClock clock;
        final long startNs;
        int requests;
        int flat;
        double best = Double.MAX_VALUE;
        Double first;
        Double last;

        State(Settings s, CapClock clock) {
            this.s = s;
            this.clock = clock;
            this.startNs = clock.nanoTime();
        }

        /**
         * @param count        requests of the batch
         * @param usPerRequest the batch's wall time per request, µs
         * @param jitShare     share of the batch's wall time the JIT spent compiling (0 when unknown)
         * @return whether to go on
         */
        boolean record(int count, double usPerRequest, double jitShare) {
            requests += count;
            if (first == null) {
                first = usPerRequest;
            }
            last = usPerRequest;
            if (usPerRequest < best * (1 - IMPROVEMENT)) {
                flat = 0;
            } else {
                flat++;
            }
            best = Math.min(best, usPerRequest);
            double elapsedS = (clock.nanoTime() - startNs) / 1e9;
            boolean settled = requests >= s.minRequests() && flat >= FLAT_BATCHES && jitShare < JIT_SETTLED;
            return !settled && elapsedS < s.maxSeconds() && requests < s.maxRequests();
        }

        WarmupResult result() {
            return new WarmupResult(requests, (clock.nanoTime() - startNs) / 1e6, first, last, 0, 0);
        }
    }

    private static void next(List<Context> contexts, StreamingClient client, WarmupBodies bodies, BooleanSupplier stop,
                             Consumer<RequestResult> onResult, State st, Promise<WarmupResult> result) {
        int count = st.s.batchRequests();
        long jit0 = compileMs();
        RequestBatch.run(contexts, client, bodies, k -> java.util.Map.of(), st.requests, count, st.s.concurrency(), stop, onResult).onComplete(ar -> {
            if (ar.failed() || ar.result().failed() == ar.result().started()) {
                result.complete(st.result()); // nothing of this batch worked: end, without counting it
                return;
            }
            if (ar.result().started() < count || stop.getAsBoolean()) {
                st.requests += ar.result().started(); // a stop request: end after what was started
                result.complete(st.result());
                return;
            }
            long wallNs = ar.result().wallNs();
            long jit = compileMs() - jit0;
            double jitShare = jit0 < 0 || wallNs <= 0 ? 0 : jit * 1e6 / wallNs;
            if (st.record(count, wallNs / 1e3 / count, jitShare)) {
                next(contexts, client, bodies, stop, onResult, st, result);
            } else {
                result.complete(st.result());
            }
        });
    }

    /** @return total JIT compilation time so far, ms (summed over compiler threads), or -1 when not monitored */
    private static long compileMs() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }
}

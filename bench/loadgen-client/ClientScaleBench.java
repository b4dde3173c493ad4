/*
 * Client-side scale check of the load generator, run by hand:  bench/loadgen-client/run.sh
 *
 * A minimal streaming server (Vert.x, its own JVM, "server" mode) answers every request after a
 * fixed TTFT with N content chunks at a fixed interval, then usage and [DONE]. The client JVM runs
 * LoadGenerator closed-loop at the given concurrency and prints: failures by type, client TTFT
 * minus the server's configured TTFT (p50/p99/max, ms), and the client process CPU per 1,000
 * chunks. Arguments (client mode): baseUrl ttftMs concurrency requests chunks.
 */
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

public class ClientScaleBench {
    public static void main(String[] a) throws Exception {
        if (a[0].equals("server")) {
            server(Integer.parseInt(a[1]), Long.parseLong(a[2]), Integer.parseInt(a[3]), Long.parseLong(a[4]));
        } else {
            client(a[0], Long.parseLong(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]), Integer.parseInt(a[4]));
        }
    }

    static void server(int port, long ttftMs, int chunks, long intervalMs) throws Exception {
        Vertx vertx = Vertx.vertx();
        vertx.createHttpServer(new HttpServerOptions().setAcceptBacklog(8192)).requestHandler(req -> req.body().onSuccess(b -> {
            var r = req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            vertx.setTimer(ttftMs, t -> {
                r.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok\"}}]}\n\n");
                int[] left = {chunks - 1};
                if (left[0] == 0) {
                    finish(r, chunks);
                    return;
                }
                vertx.setPeriodic(intervalMs, id -> {
                    r.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\"}}]}\n\n");
                    if (--left[0] == 0) {
                        vertx.cancelTimer(id);
                        finish(r, chunks);
                    }
                });
            });
        })).listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        System.out.println("server listening on " + port);
        Thread.currentThread().join();
    }

    static void finish(io.vertx.core.http.HttpServerResponse r, int chunks) {
        r.end("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":" + chunks + "}}\n\ndata: [DONE]\n\n");
    }

    static void client(String base, long ttftMs, int conc, int requests, int chunks) throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions());
        LoadGenerator gen = new LoadGenerator(vertx);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (String phase : new String[] {"warmup", "measure"}) {
            int n = phase.equals("warmup") ? Math.min(requests, Math.max(conc, 500)) : requests;
            RunConfig cfg = RunConfig.of(TargetConfig.of(base, "bench").withTimeoutS(120)
                            .withKeepAlive(Boolean.getBoolean("keepAlive")))
                    .withLoad(LoadShape.DEFAULTS.withRequests(n).withConcurrency(conc))
                    .withRequest(RequestShape.DEFAULTS.withCtxTokens(32).withSharedPrefixTokens(0).withMaxTokens(chunks)
                            .withMaxModelLen(4096));
            InMemoryEventSink sink = new InMemoryEventSink();
            // event-loop lag probe: a 10 ms periodic timer on every event loop, lateness recorded
            List<Double> lag = Collections.synchronizedList(new ArrayList<>());
            List<Long> timers = new ArrayList<>();
            for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
                var ctx = ((io.vertx.core.internal.VertxInternal) vertx).createEventLoopContext();
                long[] last = {System.nanoTime()};
                ctx.runOnContext(v -> timers.add(vertx.setPeriodic(10, id -> {
                    long now = System.nanoTime();
                    lag.add((now - last[0]) / 1e6 - 10.0);
                    last[0] = now;
                })));
            }
            long cpu0 = os.getProcessCpuTime();
            RunOutcome o = gen.run(cfg, sink, RunListener.NONE).get(30, TimeUnit.MINUTES);
            long cpu = os.getProcessCpuTime() - cpu0;
            timers.forEach(vertx::cancelTimer);
            List<Double> lags = new ArrayList<>(lag);
            Collections.sort(lags);
            List<Double> over = new ArrayList<>();
            Map<String, Integer> failures = new TreeMap<>();
            long chunksSeen = 0;
            for (RunEvent e : sink.events()) {
                if (e.getPayload() instanceof RequestCompleted c) {
                    over.add(c.getTtftNs() / 1e6 - ttftMs);
                    chunksSeen += c.getContentChunks();
                } else if (e.getPayload() instanceof RequestFailed f) {
                    failures.merge(f.getErrorType() + ": " + f.getErrorMessage(), 1, Integer::sum);
                }
            }
            Collections.sort(over);
            System.out.printf("%s: %d requests at concurrency %d: %d completed, %d failed %s; wall %.1f s%n", phase, n, conc,
                    o.completed(), o.failed(), failures, o.wallClockNs() / 1e9);
            if (!over.isEmpty()) {
                System.out.printf("  TTFT overhead over the server's %d ms: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", ttftMs,
                        nr(over, 50), nr(over, 99), over.get(over.size() - 1));
                System.out.printf("  client CPU: %.2f s for %d chunks = %.1f ms CPU per 1,000 chunks (incl. connects, events)%n",
                        cpu / 1e9, chunksSeen, cpu / 1e6 / (chunksSeen / 1000.0));
                if (!lags.isEmpty()) {
                    System.out.printf("  client event-loop lag (10 ms timer lateness): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                            nr(lags, 50), nr(lags, 99), lags.get(lags.size() - 1));
                }
            }
        }
        vertx.close();
        System.exit(0);
    }

    static double nr(List<Double> sorted, int q) {
        return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size() / 100.0) - 1));
    }
}

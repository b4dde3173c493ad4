/*
 * Load-generator benchmark against a simulated engine in a separate process (run by bench/loadgen/run.sh).
 *
 * Runs io.capstream.loadgen.run.LoadGenerator closed-loop against BASE_URL and prints, per phase:
 * completed/failed (with the failure types), client TTFT percentiles, the TTFT overhead over the
 * engine's configured TTFT (p50/p99/max), chunks received, and the client's process CPU time per
 * 1,000 chunks (JVM process CPU time during the phase / chunks). Events go to an in-memory sink:
 * the Kafka producer's cost is not included (see README in this folder).
 *
 * Usage (single-file source launch with the shaded jar on the class path):
 *   java -cp cli/target/capstream.jar bench/loadgen/LoadgenBench.java BASE_URL ENGINE_TTFT_MS \
 *        phase:REQUESTS:CONCURRENCY[:keepalive][:poisson=RPS][:ramp=SECONDS] ...
 * (poisson=RPS: open loop at RPS requests/s instead of the closed loop; in flight capped at 2 x CONCURRENCY;
 *  ramp=SECONDS: closed loop with --ramp-up, the slots started evenly over SECONDS instead of all at once)
 */
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunIdentity;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

public class LoadgenBench {
    public static void main(String[] args) throws Exception {
        String baseUrl = args[0];
        double engineTtftMs = Double.parseDouble(args[1]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Vertx vertx = Vertx.vertx(new VertxOptions().setBlockedThreadCheckInterval(60_000));
        LoadGenerator gen = new LoadGenerator(vertx);
        for (int a = 2; a < args.length; a++) {
            String[] p = args[a].split(":");
            String name = p[0];
            int requests = Integer.parseInt(p[1]);
            int conc = Integer.parseInt(p[2]);
            boolean keepAlive = false;
            Double poissonRps = null;
            Double rampS = null;
            for (int o = 3; o < p.length; o++) {
                if (p[o].equals("keepalive")) {
                    keepAlive = true;
                } else if (p[o].startsWith("poisson=")) {
                    poissonRps = Double.parseDouble(p[o].substring("poisson=".length()));
                } else if (p[o].startsWith("ramp=")) {
                    rampS = Double.parseDouble(p[o].substring("ramp=".length()));
                } else {
                    throw new IllegalArgumentException("unknown phase option " + p[o]
                            + " (keepalive, poisson=RPS, ramp=SECONDS)");
                }
            }
            LoadShape load = LoadShape.DEFAULTS.withRequests(requests).withConcurrency(conc).withRampUpS(rampS);
            RunIdentity identity = RunIdentity.DEFAULTS.withRunIdSuffix(name);
            if (poissonRps != null) {
                // Open loop at the closed loop's average rate: the same load without synchronised waves.
                load = load.withArrival(ArrivalMode.POISSON).withRateRps(poissonRps)
                        .withMaxInFlight(Math.max(conc, 1) * 2);
                identity = identity.withSeed(1);
            }
            RunConfig cfg = RunConfig.of(TargetConfig.of(baseUrl, "capstream-sim").withEngine("capstream-sim")
                            .withTimeoutS(120).withKeepAlive(keepAlive))
                    .withLoad(load).withIdentity(identity)
                    .withRequest(RequestShape.DEFAULTS.withCtxTokens(32).withSharedPrefixTokens(0).withMaxTokens(64)
                            .withMaxModelLen(32768));
            simStats(baseUrl, true);
            InMemoryEventSink sink = new InMemoryEventSink();
            System.gc();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            RunOutcome out = gen.run(cfg, sink, RunListener.NONE).join();
            long wallNs = System.nanoTime() - t0;
            long cpuNs = os.getProcessCpuTime() - cpu0;
            List<Long> ttft = new ArrayList<>();
            // Closed loop: the first `conc` requests start together at T0 (the start burst); the rest is the
            // steady state, where each request starts when an earlier one ends.
            List<Long> steadyTtft = new ArrayList<>();
            long chunks = 0;
            Map<String, Integer> failures = new TreeMap<>();
            // Streams in flight: +1 at each start, -1 at each end (ns after the run's T0).
            TreeMap<Long, Integer> edges = new TreeMap<>();
            double streamNs = 0;
            for (RunEvent e : sink.events()) {
                if (e.getPayload() instanceof RequestCompleted c) {
                    edges.merge(c.getStartNs(), 1, Integer::sum);
                    edges.merge(c.getStartNs() + c.getE2eNs(), -1, Integer::sum);
                    streamNs += c.getE2eNs();
                    ttft.add(c.getTtftNs());
                    if (poissonRps == null && c.getRequestIndex() >= conc) {
                        steadyTtft.add(c.getTtftNs());
                    }
                    chunks += c.getContentChunks() + c.getReasoningChunks();
                } else if (e.getPayload() instanceof RequestFailed f) {
                    failures.merge(f.getErrorType() + ": " + f.getErrorMessage(), 1, Integer::sum);
                }
            }
            long[] t = ttft.stream().mapToLong(Long::longValue).sorted().toArray();
            int inFlight = 0;
            int maxInFlight = 0;
            for (int d : edges.values()) {
                inFlight += d;
                maxInFlight = Math.max(maxInFlight, inFlight);
            }
            System.out.printf(Locale.ROOT, "%n== phase %s: %d requests, %s, keep-alive %s%n", name, requests,
                    poissonRps == null ? "closed loop, concurrency " + conc + (rampS == null ? "" : ", ramp-up " + rampS + " s")
                            : "open loop, Poisson " + poissonRps + " req/s",
                    keepAlive);
            System.out.printf(Locale.ROOT, "completed %d, failed %d, wall %.1f s, events undelivered %d%n",
                    out.completed(), out.failed(), wallNs / 1e9, out.eventsUndelivered());
            System.out.printf(Locale.ROOT, "streams in flight: mean %.0f (stream time / wall), max %d%n",
                    streamNs / wallNs, maxInFlight);
            failures.forEach((k, v) -> System.out.printf(Locale.ROOT, "  failure x%d: %s%n", v, k));
            if (t.length > 0) {
                System.out.printf(Locale.ROOT, "client TTFT ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f%n",
                        q(t, 50) / 1e6, q(t, 90) / 1e6, q(t, 99) / 1e6, t[t.length - 1] / 1e6);
                System.out.printf(Locale.ROOT, "TTFT overhead over the engine's %.0f ms: p50 %.2f ms  p99 %.2f ms  max %.2f ms%n",
                        engineTtftMs, q(t, 50) / 1e6 - engineTtftMs, q(t, 99) / 1e6 - engineTtftMs,
                        t[t.length - 1] / 1e6 - engineTtftMs);
            }
            long[] st = steadyTtft.stream().mapToLong(Long::longValue).sorted().toArray();
            if (st.length > 0) {
                System.out.printf(Locale.ROOT, "  after the start burst (requests %d.., %d samples): overhead p50 %.2f ms"
                                + "  p99 %.2f ms  max %.2f ms%n", conc, st.length, q(st, 50) / 1e6 - engineTtftMs,
                        q(st, 99) / 1e6 - engineTtftMs, st[st.length - 1] / 1e6 - engineTtftMs);
            }
            String engine = simStats(baseUrl, false);
            System.out.println("engine side: " + engine);
            var ej = new com.fasterxml.jackson.databind.ObjectMapper().readTree(engine);
            if (t.length > 0 && ej.hasNonNull("engine_ttft_p99_ms")) {
                System.out.printf(Locale.ROOT, "client TTFT - engine-side TTFT: p50 %.2f ms  p99 %.2f ms%n",
                        q(t, 50) / 1e6 - ej.get("engine_ttft_p50_ms").asDouble(),
                        q(t, 99) / 1e6 - ej.get("engine_ttft_p99_ms").asDouble());
            }
            System.out.printf(Locale.ROOT, "chunks %d (%.0f/s); client process CPU %.2f s (%.0f%% of one core);"
                            + " CPU per 1,000 chunks %.2f ms%n", chunks, chunks / (wallNs / 1e9), cpuNs / 1e9,
                    100.0 * cpuNs / wallNs, chunks == 0 ? Double.NaN : cpuNs / 1e6 / (chunks / 1000.0));
        }
        vertx.close().await();
    }

    /** GET /sim/stats (optionally resetting the engine-side TTFT histogram). */
    static String simStats(String baseUrl, boolean reset) throws Exception {
        String root = baseUrl.replaceAll("/v1/?$", "");
        var http = java.net.http.HttpClient.newHttpClient();
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create(root + "/sim/stats" + (reset ? "?reset=true" : "")))
                .build();
        return http.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Nearest-rank percentile of a sorted array. */
    static long q(long[] sorted, double pct) {
        int idx = (int) Math.max(0, Math.ceil(pct * sorted.length / 100.0) - 1);
        return sorted[Math.min(idx, sorted.length - 1)];
    }
}

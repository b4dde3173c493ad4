package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.aggregator.AggregatorTopology;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two API servers as two aggregator instances of one application (fake stores and a fake
 * {@link InstanceLocator}, no Kafka): keyed lookups are forwarded to the owner and never forwarded
 * again, range queries are merged, an unreachable instance gives 503 naming it.
 */
class ScaleOutApiTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** Fixed stores of one instance; counts the artifact lookups it answers. */
    static final class Stores implements QueryService {
        final Map<String, String> artifacts = new ConcurrentHashMap<>();
        final List<BenchmarkReport> runs = new ArrayList<>();
        final List<WindowSummary> summaries = new ArrayList<>();
        final AtomicInteger artifactLookups = new AtomicInteger();

        @Override
        public List<BenchmarkReport> runs() {
            return runs;
        }

        @Override
        public Optional<BenchmarkReport> run(String runId) {
            return runs.stream().filter(r -> r.getRunId().equals(runId)).findFirst();
        }

        @Override
        public Optional<byte[]> artifact(String runId) {
            artifactLookups.incrementAndGet();
            return Optional.ofNullable(artifacts.get(runId)).map(s -> s.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public List<WindowSummary> summaries(String target, String model, long fromMs, long toMs) {
            return summaries.stream().filter(s -> s.getWindowStartMs() >= fromMs && s.getWindowStartMs() <= toMs).toList();
        }

        @Override
        public List<SloBreach> alerts(long fromMs, long toMs) {
            return List.of();
        }

        @Override
        public List<SloBreach> activeBreaches() {
            return List.of();
        }

        @Override
        public boolean ready() {
            return true;
        }
    }

    /** Owners by key (absent: this instance), and the peers holding every store. */
    record Locator(Map<String, AdvertisedUrl> owners, List<AdvertisedUrl> peers, boolean known) implements InstanceLocator {
        @Override
        public Optional<AdvertisedUrl> remoteOwner(String store, String key) {
            check();
            assertEquals(AggregatorTopology.REPORTS_STORE, store);
            return Optional.ofNullable(owners.get(key));
        }

        @Override
        public StoreHosts hosts(String store) {
            check();
            return new StoreHosts(true, peers);
        }

        private void check() {
            if (!known) {
                throw new QueryService.NotReadyException("Kafka Streams is REBALANCING, not RUNNING", null);
            }
        }
    }

    private ApiServer listen() {
        MonitoringMetrics metrics = new MonitoringMetrics();
        ApiServer api = ApiServer.listen(new ApiConfig("127.0.0.1", 0), metrics);
        closing.add(metrics);
        closing.add(api);
        return api;
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private static AdvertisedUrl url(ApiServer api) {
        return new AdvertisedUrl("127.0.0.1", api.port());
    }

    private HttpResponse<String> get(ApiServer api, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static BenchmarkReport report(String runId, String startedAt) {
        return BenchmarkReport.newBuilder().setRunId(runId).setBaseUrl("http://h/v1").setModel("m").setRequests(2)
                .setCompleted(2).setFailed(0).setFailures(List.of()).setConcurrency(1).setMaxTokens(8)
                .setRequestTimings(List.of()).setStartedAt(startedAt).setMetrics(Metrics.newBuilder().build())
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build()).setArtifactJson("").build();
    }

    static String artifact(String runId) {
        return ApiServerTest.RUN.replace(ApiServerTest.RUN_ID, runId);
    }

    static WindowSummary summary(String model, long start) {
        return WindowSummary.newBuilder(ApiServerTest.summary()).setModel(model).setWindowStartMs(start)
                .setWindowEndMs(start + 60_000).build();
    }

    @Test
    void eachInstanceAnswersForEveryRunAndEveryWindow() throws Exception {
        ApiServer a = listen();
        ApiServer b = listen();
        Stores sa = new Stores();
        Stores sb = new Stores();
        sa.artifacts.put("run-a", artifact("run-a"));
        sa.runs.add(report("run-a", "2026-12-01T10:00:00Z"));
        sb.artifacts.put("run-b", artifact("run-b"));
        sb.runs.add(report("run-b", "2026-12-01T11:00:00Z"));
        sa.summaries.add(summary("m1", 60_000));
        sb.summaries.add(summary("m0", 60_000));
        sb.summaries.add(summary("m1", 60_000)); // the same window on both (e.g. just after a rebalance): once
        a.serve(sa, new Locator(Map.of("run-b", url(b)), List.of(url(b)), true));
        b.serve(sb, new Locator(Map.of("run-a", url(a)), List.of(url(a)), true));

        for (ApiServer api : List.of(a, b)) {
            HttpResponse<String> ra = get(api, "/api/runs/run-a");
            assertEquals(200, ra.statusCode(), ra.body());
            assertEquals(artifact("run-a"), ra.body());
            assertEquals("application/json", ra.headers().firstValue("content-type").orElse(""));
            assertEquals(artifact("run-b"), get(api, "/api/runs/run-b").body());

            HttpResponse<String> page = get(api, "/runs/run-b.html");
            assertEquals(200, page.statusCode(), page.body());
            assertThat(page.body()).contains("run-b");

            String runs = get(api, "/api/runs").body();
            assertThat(runs).startsWith("[{\"run_id\":\"run-b\"");
            assertThat(runs).contains("},{\"run_id\":\"run-a\"");

            String summaries = get(api, "/api/summaries?from=0&to=120000").body();
            assertEquals(ApiJson.toJsonArray(List.of(summary("m0", 60_000), summary("m1", 60_000))), summaries);
        }
        assertEquals(2, sa.artifactLookups.get(), "run-a: once asked on a, once forwarded by b");
        assertEquals(ApiJson.toJsonArray(sb.summaries), get(b, "/api/summaries?from=0&to=120000&local=true").body());
    }

    @Test
    void aForwardedRequestIsAnsweredLocallyAndNeverForwardedAgain() throws Exception {
        ApiServer a = listen();
        ApiServer b = listen();
        Stores sa = new Stores();
        Stores sb = new Stores();
        // stale metadata: each believes the other owns the run
        a.serve(sa, new Locator(Map.of("run-x", url(b)), List.of(), true));
        b.serve(sb, new Locator(Map.of("run-x", url(a)), List.of(), true));

        HttpResponse<String> r = get(a, "/api/runs/run-x");
        assertEquals(404, r.statusCode());
        assertEquals("{\"error\":\"no report for run run-x\"}", r.body());
        assertEquals(0, sa.artifactLookups.get());
        assertEquals(1, sb.artifactLookups.get());
        assertEquals(404, get(a, "/runs/run-x").statusCode());
    }

    @Test
    void anUnreachableInstanceGives503NamingIt() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        AdvertisedUrl gone = new AdvertisedUrl("127.0.0.1", closedPort);
        ApiServer a = listen();
        Stores sa = new Stores();
        sa.artifacts.put("run-a", artifact("run-a"));
        a.serve(sa, new Locator(Map.of("run-b", gone), List.of(gone), true));

        for (String path : List.of("/api/runs", "/api/summaries", "/api/alerts", "/api/alerts?active=true",
                "/api/changes", "/api/runs/run-b")) {
            HttpResponse<String> r = get(a, path);
            assertEquals(503, r.statusCode(), path);
            assertThat(r.body()).contains("aggregator instance " + gone + " did not answer");
        }
        HttpResponse<String> page = get(a, "/runs/run-b");
        assertEquals(503, page.statusCode());
        assertThat(page.body()).contains(gone.toString());
        // its own runs and its local view still answer
        assertEquals(200, get(a, "/api/runs/run-a").statusCode());
        assertEquals(200, get(a, "/api/runs?local=true").statusCode());
    }

    @Test
    void answers503WhileOwnersAreUnknownAndBeforeServing() throws Exception {
        ApiServer a = listen();
        HttpResponse<String> starting = get(a, "/api/runs");
        assertEquals(503, starting.statusCode());
        assertEquals("{\"error\":\"the aggregator is starting\"}", starting.body());
        assertEquals(503, get(a, "/ready").statusCode());
        assertEquals(503, get(a, "/runs/r").statusCode());
        assertEquals(200, get(a, "/health").statusCode());

        a.serve(new Stores(), new Locator(Map.of(), List.of(), false));
        for (String path : List.of("/api/runs", "/api/runs/r", "/api/summaries")) {
            HttpResponse<String> r = get(a, path);
            assertEquals(503, r.statusCode(), path);
            assertThat(r.body()).contains("REBALANCING");
        }
        assertThat(get(a, "/ready").body()).doesNotContain("starting");
    }
}

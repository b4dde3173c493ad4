package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP API over a fake QueryService (no Kafka). */
class ApiServerTest {
    private ApiServer server;
    private MonitoringMetrics metrics;
    private final HttpClient http = HttpClient.newHttpClient();

    static WindowSummary summary() {
        return WindowSummary.newBuilder().setTarget("http://h/v1").setModel("m").setContextBucket("le4096")
                .setWindowStartMs(60_000).setWindowEndMs(120_000).setRequests(10).setCompleted(9).setFailed(1)
                .setFailuresByType(Map.of("URLError", 1L)).setErrorRate(0.1).setPromptTokens(100).setOutputTokens(600)
                .setOutputThroughputTokS(10.0).setRelativeAccuracy(0.01)
                .setTtftMs(new Quantiles(9L, 120.0, 250.0, 300.0, List.of(110.0, 131.5), null, null,
                        Map.of("p95", "9 values are too few for a 95% interval of p95 (needs at least 72)"))).build();
    }

    /** A change point of TTFT p95 on {@link #summary()}'s series, its change at 90 000 ms (issue 32). */
    static ChangePoint change() {
        return ChangePoint.newBuilder().setTarget("http://h/v1").setModel("m").setContextBucket("le4096")
                .setMetric("ttft_p95_ms").setDirection("up").setBefore(200.0).setAfter(260.0).setRelativeChange(0.3)
                .setConfidence(0.99).setReferenceWindows(8).setAfterWindows(2).setChangeWindowStartMs(90_000)
                .setDetectedWindowEndMs(180_000).setDetectedAtMs(181_000).build();
    }

    /** The target whose window has histograms (one 0.25 s value per measure). */
    static final String HIST_TARGET = "http://hist/v1";

    /** Answers from fixed data; not ready when {@code ready} is false. */
    record FakeQueries(boolean ready) implements QueryService {
        private void check() {
            if (!ready) {
                throw new NotReadyException("Kafka Streams is REBALANCING, not RUNNING", null);
            }
        }

        @Override
        public List<BenchmarkReport> runs() {
            check();
            return List.of();
        }

        @Override
        public Optional<BenchmarkReport> run(String runId) {
            check();
            return Optional.empty();
        }

        @Override
        public Optional<byte[]> artifact(String runId) {
            check();
            if ("loading".equals(runId)) {
                throw new NotReadyException("report of run loading: chunk 3 of 9 is not loaded yet", null);
            }
            if (RUN_ID.equals(runId)) {
                return Optional.of(RUN.getBytes(StandardCharsets.UTF_8));
            }
            return "big".equals(runId) ? Optional.of(BIG.getBytes(StandardCharsets.UTF_8)) : QueryService.super.artifact(runId);
        }

        @Override
        public List<WindowSummary> summaries(String target, String model, long fromMs, long toMs) {
            check();
            if (HIST_TARGET.equals(target)) {
                return List.of(WindowSummary.newBuilder(summary()).setTarget(HIST_TARGET)
                        .setHistograms(MonitoringMetricsTest.histograms()).build());
            }
            return "http://h/v1".equals(target) && fromMs <= 60_000 && toMs >= 60_000 ? List.of(summary()) : List.of();
        }

        /** @return the SLO alert this fake answers: ttft_p95_ms&lt;=200 in breach in the window at 60 000 ms */
        static SloBreach breach() {
            return SloBreach.newBuilder().setTarget("http://h/v1").setModel("m").setContextBucket("le4096")
                    .setSlo("ttft_p95_ms<=200").setMetric("ttft_p95_ms").setComparison("<=").setThreshold(200)
                    .setObserved(250.0).setState(SloState.BREACH).setWindowStartMs(60_000).setWindowEndMs(120_000)
                    .setDetectedAtMs(121_000).build();
        }

        @Override
        public List<SloBreach> alerts(long fromMs, long toMs) {
            check();
            return List.of(breach());
        }

        @Override
        public List<SloBreach> activeBreaches() {
            return alerts(0, Long.MAX_VALUE);
        }

        @Override
        public List<ChangePoint> changes(long fromMs, long toMs) {
            check();
            return fromMs <= 90_000 && toMs >= 90_000 ? List.of(change()) : List.of();
        }
    }

    private void start(boolean ready) {
        metrics = new MonitoringMetrics();
        server = ApiServer.start(new ApiConfig("127.0.0.1", 0), new FakeQueries(ready), metrics);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            metrics.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Issue 32: a window's intervals and the reasons for missing ones reach /api/summaries as Avro JSON. */
    @Test
    void summariesCarryTheirIntervals() throws Exception {
        start(true);
        String body = get("/api/summaries?target=http%3A%2F%2Fh%2Fv1&from=0&to=1970-01-01T00:02:00Z").body();
        assertThat(body).as("/api/summaries").contains("\"p50_ci\": [110.0, 131.5]", "\"p95_ci\": null",
                "\"ci_unavailable\": {\"p95\": \"9 values are too few for a 95% interval of p95 (needs at least 72)\"}");
    }

    /** Issue 32: /api/changes answers the change points whose change began in the range, as Avro JSON. */
    @Test
    void servesTheChangePointsOfARange() throws Exception {
        start(true);
        HttpResponse<String> r = get("/api/changes?from=0&to=1970-01-01T00:02:00Z");
        assertThat(r.statusCode()).as("status of " + r.body()).isEqualTo(200);
        assertThat(r.body()).as("/api/changes").startsWith("[{\"target\": \"http://h/v1\"").contains(
                "\"metric\": \"ttft_p95_ms\"", "\"direction\": \"up\"", "\"change_window_start_ms\": 90000");
        assertThat(get("/api/changes?from=100000&to=200000").body()).as("a range without change").isEqualTo("[]");
        assertThat(get("/api/changes?from=yesterday").statusCode()).as("bad parameter").isEqualTo(400);
        stop();
        start(false);
        assertThat(get("/api/changes?from=0").statusCode()).as("not ready").isEqualTo(503);
    }

    @Test
    void servesSummariesAlertsAndMetrics() throws Exception {
        start(true);
        HttpResponse<String> s = get("/api/summaries?target=http%3A%2F%2Fh%2Fv1&from=0&to=1970-01-01T00:02:00Z");
        assertEquals(200, s.statusCode());
        assertThat(s.body()).startsWith("[{\"target\": \"http://h/v1\"");
        assertThat(s.body()).contains("\"p95\": 250.0");
        assertEquals("[]", get("/api/summaries?target=other&from=0").body());
        assertThat(get("/api/alerts").body()).contains("\"state\": \"BREACH\"");
        assertEquals(404, get("/api/runs/nope").statusCode());
        assertEquals("[]", get("/api/runs").body());
        assertEquals(400, get("/api/summaries?from=yesterday").statusCode());
        for (String route : List.of("/api/summaries", "/api/alerts", "/api/changes")) {
            // before, a range ending before it began was answered 200 with []
            HttpResponse<String> reversed = get(route + "?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z");
            assertThat(reversed.statusCode()).as(route + " with from after to: " + reversed.body()).isEqualTo(400);
            assertThat(reversed.body()).as(route + "'s error").isEqualTo("{\"error\":\"from '2030-01-01T00:00:00Z' is"
                    + " after to '2020-01-01T00:00:00Z': give from <= to\"}");
        }
        assertEquals(200, get("/ready").statusCode());
        assertEquals(200, get("/health").statusCode());

        metrics.accept(summary());
        String prom = get("/metrics").body();
        assertThat(prom).contains("capstream_window_ttft_seconds{context_bucket=\"le4096\",model=\"m\",target=\"http://h/v1\","
                + "quantile=\"0.95\"} 0.25");
        assertThat(prom).contains("capstream_requests_total{context_bucket=\"le4096\",model=\"m\",outcome=\"completed\","
                + "target=\"http://h/v1\"} 9.0");
        assertThat(prom).contains("capstream_requests_total{context_bucket=\"le4096\",error_type=\"URLError\",model=\"m\","
                + "outcome=\"failed\",target=\"http://h/v1\"} 1.0");
        assertThat(prom).contains("capstream_window_error_rate{");
    }

    @Test
    void summariesCarryTheirHistogramBucketsSoThatAConsumerCanMergeWindows() throws Exception {
        start(true);
        HttpResponse<String> r = get("/api/summaries?target=http%3A%2F%2Fhist%2Fv1&from=0");
        assertEquals(200, r.statusCode(), r.body());
        io.vertx.core.json.JsonObject ttft = new io.vertx.core.json.JsonArray(r.body()).getJsonObject(0)
                .getJsonObject("histograms").getJsonObject("ttft");
        assertThat(ttft).as("ttft histogram in " + r.body()).isNotNull();
        assertThat(ttft.getJsonArray("bounds_s").getList()).as("bounds_s")
                .isEqualTo(io.capstream.aggregator.window.LatencyMeasure.BOUNDS_S);
        assertThat(ttft.getJsonArray("counts").getList()).as("counts, non-cumulative, one more than bounds")
                .hasSize(15).containsExactly(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(ttft.getDouble("sum_s")).as("sum_s").isEqualTo(0.25);
        assertThat(ttft.getLong("count")).as("count").isEqualTo(1L);
    }

    /** Id of the one small run artifact the fake knows. */
    static final String RUN_ID = "run-7f3a";
    /** A small report artifact (the keys a run page reads first). */
    static final String RUN = "{\"run_id\": \"" + RUN_ID + "\", \"base_url\": \"http://h/v1\", \"model\": \"m\","
            + " \"requests\": 2, \"completed\": 2, \"failed\": 0, \"request_timings\": [], \"failures\": []}";

    /** A 3 MB artifact, as a large report reassembled from its chunks. */
    static final String BIG = "{\n  \"request_timings\": [" + "0123456789abcdef".repeat(200_000) + "]\n}\n";

    @Test
    void servesAWholeLargeArtifactAndAnswers503WhileItsChunksAreLoading() throws Exception {
        start(true);
        HttpResponse<String> big = get("/api/runs/big");
        assertEquals(200, big.statusCode());
        assertEquals(BIG, big.body());
        assertEquals("application/json", big.headers().firstValue("content-type").orElse(""));
        HttpResponse<String> loading = get("/api/runs/loading");
        assertEquals(503, loading.statusCode());
        assertThat(loading.body()).contains("not loaded yet");
    }

    /**
     * A flag ({@code active}, {@code local}) other than true/false (any case) is a 400 with the one-line JSON error, like
     * a bad time; before, {@code active=maybe} quietly listed the alert history as {@code active=false} would.
     */
    @Test
    void answers400ForAFlagThatIsNeitherTrueNorFalse() throws Exception {
        start(true);
        for (String path : List.of("/api/alerts?active=maybe", "/api/alerts?active=1", "/api/runs?local=maybe",
                "/api/runs/nope?local=yes", "/api/summaries?local=0", "/api/alerts?local=maybe", "/api/changes?local=x")) {
            HttpResponse<String> r = get(path);
            String name = path.substring(path.indexOf('?') + 1, path.indexOf('='));
            String value = path.substring(path.indexOf('=') + 1);
            assertThat(r.statusCode()).as(path + " answered " + r.body()).isEqualTo(400);
            assertThat(r.body()).as(path).isEqualTo("{\"error\":\"bad " + name + " '" + value
                    + "': expected true or false\"}");
        }
        HttpResponse<String> page = get("/runs/" + RUN_ID + "?local=maybe");
        assertThat(page.statusCode()).as("/runs/{id}?local=maybe answered " + page.body()).isEqualTo(400);
        assertThat(page.body()).as("/runs/{id}?local=maybe").contains("bad local &#39;maybe&#39;", "<html");
        for (String path : List.of("/api/alerts?active=TRUE", "/api/alerts?active=False", "/api/runs?local=True",
                "/runs/" + RUN_ID + "?local=true")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path + " answered " + r.body()).isEqualTo(200);
        }
    }

    @Test
    void answers503WhileStreamsIsNotRunning() throws Exception {
        start(false);
        HttpResponse<String> r = get("/api/summaries");
        assertEquals(503, r.statusCode());
        assertThat(r.body()).contains("REBALANCING");
        assertEquals(503, get("/ready").statusCode());
        assertEquals(200, get("/health").statusCode());
    }
}

package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.servermetrics.ServerScrape;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The side probes alone: a fake metrics endpoint, a manual clock for the scrapes' times. */
class SideProbesTest {
    static Vertx vertx;
    static HttpServer server;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> {
            if (req.path().equals("/metrics")) {
                req.response().putHeader("Content-Type", "text/plain").end("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 3\n");
            } else {
                req.response().setStatusCode(404).end();
            }
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static RunConfig config(String baseUrl, ServerMetricsConfig sm) {
        return RunConfig.of(TargetConfig.of(baseUrl, "m"))
                .withServerMetrics(sm)
                .withLoad(l -> l.withRequests(2));
    }

    private static SideProbes probes(RunConfig c, ShareAssignment a, List<String> notices, ManualCapClock clock) {
        RunListener l = new RunListener() {
            @Override
            public void onNotice(String line) {
                notices.add(line);
            }
        };
        return new SideProbes(vertx, c, a, new GuardedListener(l, SecretMask.NONE), clock);
    }

    @Test
    void autoFindsTheMetricsBesideTheBaseUrlAndSaysSo() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        SideProbes p = probes(config(base + "/v1", ServerMetricsConfig.AUTO), null, notices, new ManualCapClock());
        String url = p.discoverServerMetrics().await(10, TimeUnit.SECONDS);
        assertThat(url).as("the URL found").isEqualTo(base + "/metrics");
        assertThat(notices).as("notices").singleElement().asString()
                .contains(base + "/metrics answers with Prometheus text").contains("every 1000 ms");
    }

    @Test
    void autoWithoutMetricsOffAndOtherSharesScrapeNothingSilently() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        ManualCapClock clock = new ManualCapClock();
        // /v1/x/metrics answers 404
        assertThat(probes(config(base + "/v1/x", ServerMetricsConfig.AUTO), null, notices, clock)
                .discoverServerMetrics().await(10, TimeUnit.SECONDS)).as("auto, 404").isNull();
        assertThat(probes(config(base + "/v1", ServerMetricsConfig.OFF), null, notices, clock)
                .discoverServerMetrics().await(10, TimeUnit.SECONDS)).as("off").isNull();
        ShareAssignment share1 = new ShareAssignment(new PlanShare(1, 2), 1, clock.millis(), 0.0, 0.5);
        assertThat(probes(config(base + "/v1", ServerMetricsConfig.AUTO), share1, notices, clock)
                .discoverServerMetrics().await(10, TimeUnit.SECONDS)).as("share 1 of 2").isNull();
        assertThat(notices).as("notices").isEmpty();
    }

    @Test
    void aConfiguredUrlThatDoesNotAnswerIsScrapedWithAWarning() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        ServerMetricsConfig sm = new ServerMetricsConfig(ServerMetricsConfig.Mode.URL, base + "/nothing", 500);
        String url = probes(config(base + "/v1", sm), null, notices, new ManualCapClock())
                .discoverServerMetrics().await(10, TimeUnit.SECONDS);
        assertThat(url).as("the configured URL").isEqualTo(base + "/nothing");
        assertThat(notices).as("notices").singleElement().asString().contains("every 500 ms")
                .contains("warning: GET " + base + "/nothing answered 404");
    }

    @Test
    void theScrapesAreTimedOnTheInjectedClockFromT0() throws Exception {
        ManualCapClock clock = new ManualCapClock();
        List<String> notices = new CopyOnWriteArrayList<>();
        // an interval no test waits for: the baseline before T0 and the last scrape at the end are the two scrapes
        ServerMetricsConfig sm = new ServerMetricsConfig(ServerMetricsConfig.Mode.URL, base + "/metrics", 3_600_000);
        SideProbes p = probes(config(base + "/v1", sm), null, notices, clock);
        p.discoverServerMetrics().await(10, TimeUnit.SECONDS);
        List<Context> contexts = List.of(((VertxInternal) vertx).createEventLoopContext());
        p.start(contexts).await(30, TimeUnit.SECONDS);
        long baselineMs = clock.millis();
        clock.advance(Duration.ofSeconds(5));
        long t0 = clock.nanoTime();
        List<Long> told = new CopyOnWriteArrayList<>();
        p.beginScraping(t0, (epochMs, tMs, samples) -> told.add(epochMs));
        clock.advance(Duration.ofSeconds(3));
        SideProbes.Ended ended = p.stop(3_000_000_000L, WarmupResult.NONE, "async").await(30, TimeUnit.SECONDS);
        List<ServerScrape> scrapes = ended.recording().scrapes();
        assertThat(scrapes).as("scrapes").extracting(ServerScrape::tMs).containsExactly(-5000.0, 3000.0);
        assertThat(scrapes).as("scrapes' epoch ms").extracting(ServerScrape::epochMs)
                .containsExactly(baselineMs, baselineMs + 8000);
        assertThat(scrapes.get(0).scrapeMs()).as("scrape time on a clock that did not move").isEqualTo(0.0);
        assertThat(told).as("the baseline and the last scrape go to the listener").contains(baselineMs);
        assertThat(ended.check()).as("the self-check's verdict").isNotNull();
    }

    @Test
    void loopbackHostsAreLocal() {
        assertThat(SideProbes.isLocal("http://localhost:8000/v1")).as("localhost").isTrue();
        assertThat(SideProbes.isLocal("http://127.0.0.2/v1")).as("127.0.0.2").isTrue();
        assertThat(SideProbes.isLocal("http://[::1]:80/v1")).as("[::1]").isTrue();
        assertThat(SideProbes.isLocal("https://api.example.com/v1")).as("a remote host").isFalse();
        assertThat(SideProbes.isLocal("not a url")).as("not a URL").isFalse();
    }
}

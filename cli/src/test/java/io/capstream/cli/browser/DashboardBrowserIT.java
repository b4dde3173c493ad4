package io.capstream.cli.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.loadgen.continuous.KafkaHeartbeatSender;
import io.capstream.schemas.avro.Heartbeat;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live dashboard at {@code /} of the aggregator's HTTP API in headless Chromium: an aggregator
 * (2 s windows, an SLO every window breaks) on the embedded broker, one {@code capstream run
 * --no-aggregator} against it, heartbeats until its windows close. The dashboard lists the run,
 * shows the alert and marks its firing period on the TTFT p95 chart, draws the window summaries, calls no other origin
 * and logs no error; its link
 * leads to the run's page, which passes the same checks. Skipped where Chromium is not installed.
 */
class DashboardBrowserIT {
    private static final String RUN_ID = "browser-dash";
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void theDashboardListsTheRunDrawsItsWindowsAndLinksToItsPage() throws Exception {
        String registry = "mock://dashboard-browser-it-" + UUID.randomUUID();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bootstrap, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            AggregatorConfig config = AggregatorConfig.of(registry, Duration.ofSeconds(2), Duration.ofMillis(500),
                    SloParser.parseAll(List.of("ttft_p95_ms<=1")));
            config = config.withSlo(config.slo().withDecision(SloDecision.point(1))); // few requests per window
            try (AggregatorService aggregator = AggregatorService.start(config,
                    StreamsSettings.defaults("dashboard-browser-it", bootstrap, stateDir), new ApiConfig("127.0.0.1", 0));
                 KafkaHeartbeatSender heartbeats = KafkaHeartbeatSender.create(bootstrap, registry, Map.of(),
                         "dashboard-browser-it")) {
                String base = "http://127.0.0.1:" + aggregator.httpPort();
                // events sent during the first rebalance can leave the Streams producers retrying for long
                await().atMost(Duration.ofSeconds(60)).until(() -> aggregator.state() == KafkaStreams.State.RUNNING);
                int code = CapstreamMain.execute("run", "--bootstrap-servers", bootstrap, "--schema-registry-url", registry,
                        "--no-aggregator", "--run-id", RUN_ID, "--requests", "24", "--concurrency", "4",
                        "--ctx-tokens", "256", "--max-tokens", "16", "--shared-prefix-tokens", "0", "--client-warmup", "0");
                assertEquals(0, code, "run --no-aggregator sent its events");

                // heartbeats advance stream time on every partition, so that the run's windows close
                ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor();
                beat.scheduleAtFixedRate(() -> heartbeats.beat(new Heartbeat("http://127.0.0.1:1/v1", "capstream-sim", java.util.Map.of(), null)),
                        0, 300, TimeUnit.MILLISECONDS);
                try {
                    awaitBody(base + "/api/runs", "\"" + RUN_ID + "\"");
                    awaitBody(base + "/api/summaries", "\"window_start_ms\"");
                    awaitBody(base + "/api/alerts?active=true", "ttft_p95_ms");
                    // issue 32: the change-point history store answers on a real Streams instance (no shift here)
                    HttpResponse<String> changes = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(base + "/api/changes")).timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(changes.statusCode()).as("/api/changes: " + changes.body()).isEqualTo(200);
                    assertThat(changes.body()).as("/api/changes").isEqualTo("[]");
                } finally {
                    beat.shutdownNow();
                }

                URI dashboard = URI.create(base + "/");
                PageCheck check = CHROMIUM.browser().open(dashboard, "dashboard",
                        "document.querySelectorAll('.chart').length > 0"
                                + " && document.body.innerText.indexOf('" + RUN_ID + "') >= 0");
                PageAssertions.assertDrawnOffline(check, 1);
                Document dom = Jsoup.parse(check.html(), dashboard.toString());
                assertThat(dom.text()).as("the runs table lists the run: " + dom.text()).contains(RUN_ID);
                assertThat(dom.text()).as("the active alert is shown: " + dom.text()).contains("ttft_p95_ms");
                // issue 32: the alert's firing period is marked on the TTFT p95 chart (drawn and listed under it)
                assertThat(dom.select("ul.marks[data-marks-of=ttft-p95] li.mark.alert").eachText())
                        .as("alert marks under TTFT p95: " + dom.select("ul.marks")).isNotEmpty()
                        .allSatisfy(t -> assertThat(t).startsWith("alert ttft_p95_ms<=1 on "));
                assertThat(String.valueOf(CHROMIUM.browser().script("return document.querySelector("
                        + "'[data-chart=\"ttft-p95\"]').getAttribute('data-alert-marks');")))
                        .as("alert bands drawn on TTFT p95").isNotEqualTo("0").isNotEqualTo("null");
                Element link = dom.select("a[href]").stream()
                        .filter(a -> a.absUrl("href").endsWith("/runs/" + RUN_ID)).findFirst()
                        .orElseThrow(() -> new AssertionError("no link to /runs/" + RUN_ID + ": " + dom.select("a[href]")));

                PageCheck run = CHROMIUM.browser().open(URI.create(link.absUrl("href")), "dashboard-run-page");
                PageAssertions.assertDrawnOffline(run, 4);
                assertThat(run.html()).as("the run's page names it").contains(RUN_ID);
            }
        }
    }

    /** Waits up to 60 s until the API answers {@code url} with a body containing {@code expected}. */
    private static void awaitBody(String url, String expected) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            String body = get(url);
            assertThat(body).as(url + " answers " + body).contains(expected);
        });
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
    }
}

package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.html.HtmlAssets;
import io.capstream.aggregator.slo.SloParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code GET /} (the live dashboard) and {@code GET /runs/:id} (a run's page) over the fake QueryService. */
class DashboardRoutesTest {
    private static final String HTML = "text/html; charset=utf-8";
    private ApiServer server;
    private MonitoringMetrics metrics;
    private final HttpClient http = HttpClient.newHttpClient();

    private void start(boolean ready) {
        metrics = new MonitoringMetrics();
        server = ApiServer.start(new ApiConfig("127.0.0.1", 0), new ApiServerTest.FakeQueries(ready), metrics);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            metrics.close();
            server = null;
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theDashboardIsOneSelfContainedPageThatPollsTheApiByRelativeUrls() throws Exception {
        start(true);
        HttpResponse<String> r = get("/");
        assertEquals(200, r.statusCode());
        // the JDK client offers an h2c upgrade; the API stays on HTTP/1.1 (the upgraded exchange intermittently broke
        // on the 2 MB page in CI: "Frame type(116) length(2118501) exceeds MAX_FRAME_SIZE(16384)")
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals(HTML, r.headers().firstValue("content-type").orElse(""));
        Document doc = Jsoup.parse(r.body());
        assertEquals("capstream live dashboard", doc.title());
        for (Element e : doc.select("[src], [href]")) {
            String url = e.hasAttr("src") ? e.attr("src") : e.attr("href");
            assertThat(url).as("network URL in " + e.outerHtml()).doesNotStartWith("http:");
            assertThat(url).as("network URL in " + e.outerHtml()).doesNotStartWith("https:");
            assertThat(url).as("network URL in " + e.outerHtml()).doesNotStartWith("//");
        }
        assertEquals(0, doc.select("script[src], link[rel=stylesheet], iframe, img").size(), "nothing loaded from elsewhere");
        List<Element> scripts = doc.select("script");
        assertEquals(2, scripts.size(), "uPlot and the dashboard script, both inline");
        assertThat(scripts.get(0).data()).as("uPlot inlined").contains("uPlot");
        assertEquals(HtmlAssets.uplotJs().length(), DashboardPage.inScript(HtmlAssets.uplotJs()).length(),
                "uPlot holds no </script to escape");
        String js = scripts.get(1).data();
        for (String api : List.of("'api/runs'", "'api/summaries?from='", "'api/alerts?active=true'", "'api/alerts?from='",
                "'api/changes?from='", "'runs/'")) {
            assertThat(js).as("relative URL " + api).contains(api);
        }
        assertThat(js).as("no absolute API path").doesNotContain("'/api/");
        assertThat(js).as("chart containers <div class=\"chart\" data-chart data-points>")
                .contains("el('div', 'chart')", "'data-chart'", "'data-points'");
        assertThat(js).contains("no window summaries yet");
        for (String id : List.of("runs", "summaries", "alerts", "updated", "error", "span")) {
            assertEquals(1, doc.select("#" + id).size(), "#" + id);
        }
        assertTrue(doc.getElementById("error").hasAttr("hidden"), "no error shown before the first refresh");
        assertEquals(0, doc.select("div.chart").size(), "no chart container before there is data");
        assertEquals(2, doc.select("style").size());
    }

    @Test
    void aRunPageIsTheRunsHtmlFromItsArtifact() throws Exception {
        start(true);
        for (String path : List.of("/runs/" + ApiServerTest.RUN_ID, "/runs/" + ApiServerTest.RUN_ID + ".html")) {
            HttpResponse<String> r = get(path);
            assertEquals(200, r.statusCode(), path);
            assertEquals(HTML, r.headers().firstValue("content-type").orElse(""), path);
            assertThat(r.body()).contains(ApiServerTest.RUN_ID);
            assertThat(r.body()).startsWith("<!DOCTYPE html>");
        }
    }

    @Test
    void anUnknownRunIs404AndItsIdIsEscaped() throws Exception {
        start(true);
        HttpResponse<String> r = get("/runs/%3Cb%3Enope");
        assertEquals(404, r.statusCode());
        assertEquals(HTML, r.headers().firstValue("content-type").orElse(""));
        assertThat(r.body()).contains("no report for run &lt;b&gt;nope");
        assertThat(r.body()).doesNotContain("<b>");
        assertEquals("../", Jsoup.parse(r.body()).select("a").attr("href"), "links back to the dashboard");
    }

    @Test
    void aRunWhoseChunksAreLoadingOrStreamsNotRunningIs503() throws Exception {
        start(true);
        HttpResponse<String> loading = get("/runs/loading");
        assertEquals(503, loading.statusCode());
        assertEquals(HTML, loading.headers().firstValue("content-type").orElse(""));
        assertThat(loading.body()).contains("chunk 3 of 9 is not loaded yet");
        stop();
        start(false);
        HttpResponse<String> rebalancing = get("/runs/" + ApiServerTest.RUN_ID);
        assertEquals(503, rebalancing.statusCode());
        assertThat(rebalancing.body()).contains("REBALANCING");
        assertEquals(200, get("/").statusCode(), "the dashboard page itself needs no store");
    }

    @Test
    void theJsonRoutesAreUnchanged() throws Exception {
        start(true);
        HttpResponse<String> json = get("/api/runs/" + ApiServerTest.RUN_ID);
        assertEquals(200, json.statusCode());
        assertEquals("application/json", json.headers().firstValue("content-type").orElse(""));
        assertEquals(ApiServerTest.RUN, json.body());
        assertEquals("application/json", get("/api/runs/nope").headers().firstValue("content-type").orElse(""));
    }

    @Test
    void theSlosRouteAnswersTheAggregatorsSlos() throws Exception {
        start(true);
        HttpResponse<String> none = get("/api/slos");
        assertEquals(200, none.statusCode());
        assertEquals("application/json", none.headers().firstValue("content-type").orElse(""));
        assertEquals("[]", none.body(), "no SLOs");
        stop();
        metrics = new MonitoringMetrics();
        server = ApiServer.start(new ApiConfig("127.0.0.1", 0), new ApiServerTest.FakeQueries(false), metrics,
                SloParser.parseAll(List.of("ttft_p95_ms<=500", "error_rate<=0.01")));
        assertEquals("[{\"slo\":\"ttft_p95_ms<=500\",\"metric\":\"ttft_p95_ms\",\"comparison\":\"<=\",\"threshold\":500.0},"
                + "{\"slo\":\"error_rate<=0.01\",\"metric\":\"error_rate\",\"comparison\":\"<=\",\"threshold\":0.01}]",
                get("/api/slos").body(), "answered from the settings, even while Streams is not running");
        String js = Jsoup.parse(get("/").body()).select("script").get(1).data();
        assertThat(js).as("the dashboard polls the SLOs by a relative URL").contains("'api/slos'");
    }

    @Test
    void escapesScriptEndsInInlineScripts() {
        assertEquals("x <\\/script> <\\/SCRIPT", DashboardPage.inScript("x </script> </SCRIPT"));
    }
}

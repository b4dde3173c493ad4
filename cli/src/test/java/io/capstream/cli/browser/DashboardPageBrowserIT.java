package io.capstream.cli.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.capstream.aggregator.api.DashboardPage;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The live dashboard's page ({@link DashboardPage}) in headless Chromium against a stand-in of the aggregator's
 * API (a JDK HTTP server answering fixed JSON): 25 runs, six 10 s windows, and SLOs or none. The runs table shows
 * the newest 20 and says how many there are, "show more" shows the rest; throughput, output throughput and goodput
 * are charted with each SLO as a line on its metric's chart; the page fits 1400 and 1920 px. Skipped where
 * Chromium is not installed.
 */
class DashboardPageBrowserIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    private static final long T0 = 1_796_155_200_000L;
    private HttpServer server;
    /** What /api/summaries answers. */
    private Supplier<String> summaries = () -> summaries(List.of(0, 1, 2, 3, 4, 5));

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Serves the dashboard at / and the API routes it polls, each answering the given JSON. */
    private URI serve(String slos) throws Exception {
        return serve(slos, "[]", "[]");
    }

    /**
     * Serves the dashboard with an alert history ({@code /api/alerts?from=}; {@code ?active=true} gets its BREACH
     * entries without a later RECOVERED, here simply the BREACH entries) and change points ({@code /api/changes}).
     */
    private URI serve(String slos, String alerts, String changes) throws Exception {
        Map<String, Supplier<String>> routes = Map.of(
                "/", DashboardPage::render,
                "/api/runs", DashboardPageBrowserIT::runs,
                "/api/summaries", () -> summaries.get(),
                "/api/alerts", () -> alerts,
                "/api/changes", () -> changes,
                "/api/slos", () -> slos);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            Supplier<String> body = routes.get(exchange.getRequestURI().getPath());
            byte[] bytes = body == null ? new byte[0] : body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "/".equals(exchange.getRequestURI().getPath())
                    ? "text/html; charset=utf-8" : "application/json");
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private static String runs() {
        List<String> runs = new ArrayList<>();
        for (int i = 25; i >= 1; i--) {
            runs.add(String.format(Locale.ROOT, "{\"run_id\":\"run-%02d\",\"model\":\"m\",\"base_url\":\"http://127.0.0.1:1/v1\","
                    + "\"started_at\":\"2026-12-01T20:%02d:00Z\",\"requests\":8,\"completed\":8,\"failed\":0,"
                    + "\"kind\":\"LIVE\",\"complete\":true}", i, i));
        }
        return "[" + String.join(",", runs) + "]";
    }

    /**
     * The first window this stand-in serves, epoch ms (six 10 s windows from it): two minutes before the class was
     * loaded, fixed, so that the summaries the page fetches (and fetches again) and the alerts and change points a
     * test placed on them stay in the same windows when a 10 s boundary passes between the two.
     */
    private static final long FIRST_WINDOW = (System.currentTimeMillis() - 120_000) / 10_000 * 10_000;

    /** Window w's TTFT intervals: p50 [p50 - 5, p50 + 5] in every window, p95 [p95 - 8, p95 + 12] from window 2. */
    private static String ciOf(int w) {
        int p50 = 50 + w;
        int p95 = 60 + 5 * w;
        return String.format(Locale.ROOT, "\"p50_ci\":[%d,%d],\"p95_ci\":%s", p50 - 5, p50 + 5,
                w >= 2 ? "[" + (p95 - 8) + "," + (p95 + 12) + "]" : "null");
    }

    /** @param served the windows (0..5) served, each 10 s from {@link #FIRST_WINDOW} */
    private static String summaries(List<Integer> served) {
        List<String> windows = new ArrayList<>();
        for (int w : served) {
            long start = FIRST_WINDOW + w * 10_000L;
            windows.add(String.format(Locale.ROOT, "{\"target\":\"http://127.0.0.1:1/v1\",\"model\":\"m\","
                    + "\"context_bucket\":\"le4096\",\"window_start_ms\":%d,\"window_end_ms\":%d,\"requests\":%d,"
                    + "\"completed\":%d,\"failed\":1,\"failures_by_type\":{\"HTTPError\":1},\"error_rate\":%.4f,"
                    + "\"prompt_tokens\":1000,\"output_tokens\":%d,\"output_throughput_tok_s\":%.1f,"
                    + "\"relative_accuracy\":0.01,\"ttft_ms\":{\"count\":%d,\"p50\":%d,\"p95\":%d,\"p99\":%d,"
                    + ciOf(w) + "},"
                    + "\"ttfo_ms\":null,\"e2e_ms\":{\"count\":%d,\"p50\":500,\"p95\":600,\"p99\":700},"
                    + "\"itl_ms\":{\"count\":%d,\"p50\":16,\"p95\":18,\"p99\":19},\"decode_tok_s\":null,"
                    + "\"prefill_tok_s\":null,\"goodput\":%.3f,\"goodput_requests\":%d,\"server_metrics\":null}",
                    start, start + 10_000, 20 + w, 19 + w, 1.0 / (20 + w), 300 * (19 + w), 30.0 * (19 + w), 19 + w,
                    50 + w, 60 + 5 * w, 70 + 5 * w, 19 + w, 19 + w, 0.8 + w * 0.02, 16 + w));
        }
        return "[" + String.join(",", windows) + "]";
    }

    @Test
    @Timeout(90)
    void theRunsListIsBoundedAndTheChartsShowThroughputGoodputAndTheSloLines() throws Exception {
        URI uri = serve("[{\"slo\":\"ttft_p95_ms<=70\",\"metric\":\"ttft_p95_ms\",\"comparison\":\"<=\",\"threshold\":70.0},"
                + "{\"slo\":\"itl_p95_ms<=20\",\"metric\":\"itl_p95_ms\",\"comparison\":\"<=\",\"threshold\":20.0}]");
        for (int width : new int[] {1400, 1920}) {
            CHROMIUM.browser().viewport(width, 1000);
            PageCheck check = CHROMIUM.browser().open(uri, "dashboard-page-" + width,
                    "document.querySelectorAll('.chart').length >= 10 && document.getElementById('runs-count')");
            PageAssertions.assertDrawnOffline(check, 10);
            PageAssertions.assertFitsViewport(CHROMIUM.browser(), check);
            Document dom = Jsoup.parse(check.html());
            assertEquals("showing 20 of 25 runs, newest first", dom.getElementById("runs-count").text());
            assertEquals(20, dom.select("#runs tbody tr").size(), "the newest 20 runs");
            assertEquals("run-25", dom.selectFirst("#runs tbody tr td").text());
            assertEquals("show 5 more", dom.getElementById("runs-more").text());
            List<String> charts = check.charts().stream().map(PageCheck.ChartState::id).toList();
            for (String id : List.of("throughput", "output-throughput", "goodput", "itl-p95-ms")) {
                assertThat(charts).as(id + " charted: " + charts).contains(id);
            }
            assertThat(dom.getElementById("slos").text()).contains("ttft_p95_ms<=70, itl_p95_ms<=20");
            assertEquals(List.of("SLO ttft_p95_ms<=70"), legend("ttft-p95", "SLO "), "the SLO line on its chart");
            assertEquals(List.of("SLO itl_p95_ms<=20"), legend("itl-p95-ms", "SLO "));
            assertEquals(List.of(), legend("ttft-p50", "SLO "), "no line where no SLO applies");
            Object rps = CHROMIUM.browser().script("return document.querySelector('#box-throughput h3').textContent;");
            assertEquals("Completed requests/s per window", rps);
        }

        CHROMIUM.browser().script("document.getElementById('runs-more').click();");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Long.valueOf(25).equals(
                CHROMIUM.browser().script("return document.querySelectorAll('#runs tbody tr').length;")));
        assertEquals("showing 25 of 25 runs, newest first",
                CHROMIUM.browser().script("return document.getElementById('runs-count').textContent;"));
        assertEquals(Boolean.TRUE, CHROMIUM.browser().script("return !document.getElementById('runs-more');"),
                "no button once every run is shown");
    }

    /**
     * A fresh user's finding: windows with no traffic have no summary, and the lines joined the windows either side of
     * an idle span as if there had been traffic. Windows 0, 1 and 5 are served: the span of windows 2-4 is one gap on
     * every chart; with all six windows there is none.
     */
    @Test
    @Timeout(90)
    void anIdleSpanBetweenWindowsIsAGapInTheLinesNotTraffic() throws Exception {
        summaries = () -> summaries(List.of(0, 1, 5));
        URI uri = serve("[]");
        CHROMIUM.browser().viewport(1400, 1000);
        PageCheck check = CHROMIUM.browser().open(uri, "dashboard-page-gap",
                "document.querySelectorAll('.chart[data-gaps]').length >= 8");
        PageAssertions.assertDrawnOffline(check, 8);
        Object gaps = CHROMIUM.browser().script("return Array.prototype.map.call(document.querySelectorAll("
                + "'.chart[data-gaps]'), function (c) { return c.getAttribute('data-chart') + '=' + c.getAttribute("
                + "'data-gaps'); }).join(' ');");
        assertThat(String.valueOf(gaps)).as("gaps per chart").contains("throughput=1", "ttft-p95=1")
                .doesNotContain("=0").doesNotContain("=2");

        summaries = () -> summaries(List.of(0, 1, 2, 3, 4, 5));
        PageCheck whole = CHROMIUM.browser().open(uri, "dashboard-page-no-gap",
                "document.querySelectorAll('.chart[data-gaps]').length >= 8");
        Object none = CHROMIUM.browser().script("return document.querySelector('[data-chart=\"throughput\"]')"
                + ".getAttribute('data-gaps');");
        assertThat(none).as("gaps without an idle span (%s charts)", whole.charts().size()).isEqualTo("0");
    }

    @Test
    @Timeout(90)
    void withoutSlosGoodputIsANote() throws Exception {
        URI uri = serve("[]");
        CHROMIUM.browser().viewport(1400, 1000);
        PageCheck check = CHROMIUM.browser().open(uri, "dashboard-page-no-slos",
                "document.querySelectorAll('.chart').length >= 8 && document.getElementById('runs-count')");
        PageAssertions.assertDrawnOffline(check, 8);
        Document dom = Jsoup.parse(check.html());
        assertThat(dom.getElementById("box-goodput").text()).contains("the aggregator has none");
        assertThat(dom.getElementById("slos").text()).startsWith("SLOs: none set");
    }

    /**
     * Issue 32: the charts mark an SLO alert's firing period (BREACH in window 1, RECOVERED in window 3) and a
     * burn-rate alert still firing, each on its metric's chart, and a change point on the TTFT p95 chart; each mark
     * is drawn (counted by the draw hook) and listed in text under its chart. Percentile series have error bars where
     * their windows have intervals (TTFT p50: all 6 windows; TTFT p95: windows 2-5; E2E p95: none).
     */
    @Test
    @Timeout(90)
    void alertsAndChangePointsAreMarkedAndPercentilesHaveErrorBars() throws Exception {
        long t = FIRST_WINDOW;
        String key = "\"target\":\"http://127.0.0.1:1/v1\",\"model\":\"m\",\"context_bucket\":\"le4096\"";
        String slo = "\"slo\":\"ttft_p95_ms<=70\",\"metric\":\"ttft_p95_ms\",\"comparison\":\"<=\",\"threshold\":70.0";
        String alerts = "[{" + key + "," + slo + ",\"observed\":75.0,\"state\":\"BREACH\",\"window_start_ms\":"
                + (t + 10_000) + ",\"window_end_ms\":" + (t + 20_000) + ",\"detected_at_ms\":" + (t + 20_500) + "},"
                + "{" + key + "," + slo + ",\"observed\":65.0,\"state\":\"RECOVERED\",\"window_start_ms\":"
                + (t + 30_000) + ",\"window_end_ms\":" + (t + 40_000) + ",\"detected_at_ms\":" + (t + 40_500) + "},"
                + "{" + key + ",\"slo\":\"ttft_p95_ms<=70, no failure @ 99%\",\"metric\":\"burn_rate\","
                + "\"comparison\":\"<\",\"threshold\":14.4,\"observed\":20.0,\"state\":\"BREACH\",\"rule\":\"page-1h-5m\","
                + "\"burn_rate\":20.0,\"window_start_ms\":" + (t + 40_000) + ",\"window_end_ms\":" + (t + 50_000)
                + ",\"detected_at_ms\":" + (t + 50_500) + "}]";
        String changes = "[{" + key + ",\"metric\":\"ttft_p95_ms\",\"direction\":\"up\",\"before\":62.0,\"after\":80.0,"
                + "\"relative_change\":0.29,\"confidence\":0.99,\"reference_windows\":2,\"after_windows\":2,"
                + "\"change_window_start_ms\":" + (t + 20_000) + ",\"detected_window_end_ms\":" + (t + 40_000)
                + ",\"detected_at_ms\":" + (t + 40_500) + "}]";
        URI uri = serve("[{" + slo + "}]", alerts, changes);
        CHROMIUM.browser().viewport(1400, 1000);
        PageCheck check = CHROMIUM.browser().open(uri, "dashboard-page-marks",
                "document.querySelectorAll('.chart').length >= 9"
                        + " && document.querySelector('[data-chart=\"ttft-p95\"][data-change-marks]')");
        PageAssertions.assertDrawnOffline(check, 9);
        assertEquals("1", attribute("ttft-p95", "data-alert-marks"), "the SLO alert's firing period on TTFT p95");
        assertEquals("1", attribute("ttft-p95", "data-change-marks"), "the change point on TTFT p95");
        assertEquals("1", attribute("goodput", "data-alert-marks"), "the burn-rate alert on goodput");
        assertEquals("0", attribute("ttft-p50", "data-alert-marks"), "no alert on TTFT p50");
        assertEquals("0", attribute("e2e-p95", "data-change-marks"), "no change on E2E p95");
        assertEquals("6", attribute("ttft-p50", "data-error-bars"), "an interval in every window");
        assertEquals("4", attribute("ttft-p95", "data-error-bars"), "intervals from window 2");
        assertEquals("0", attribute("e2e-p95", "data-error-bars"), "no intervals sent");
        assertEquals("0", attribute("throughput", "data-error-bars"), "no error bars on a rate");

        Document dom = Jsoup.parse(check.html());
        List<String> ttftMarks = dom.select("ul.marks[data-marks-of=ttft-p95] li.mark").eachText();
        assertThat(ttftMarks).as("the marks listed under TTFT p95").hasSize(2);
        assertThat(ttftMarks.get(0)).as("alert mark").startsWith("alert ttft_p95_ms<=70 on http://127.0.0.1:1/v1 | m"
                + " | le4096: firing ").doesNotEndWith("now");
        assertThat(ttftMarks.get(1)).as("change mark").startsWith("change ttft_p95_ms up +29% (62 → 80) on ");
        assertThat(dom.select("ul.marks[data-marks-of=goodput] li.mark.alert").eachText()).as("burn-rate mark")
                .singleElement().asString().startsWith("alert page-1h-5m (burn rate 20×) on ").endsWith("– now");
        assertEquals(2, dom.select("li.mark.alert").size(), "two alert marks in all: " + dom.select("li.mark"));
        assertEquals(1, dom.select("li.mark.change").size());
    }

    private static String attribute(String chart, String name) {
        return String.valueOf(CHROMIUM.browser().script("return document.querySelector('[data-chart=\"" + chart
                + "\"]').getAttribute('" + name + "');"));
    }

    /** Legend labels of a dashboard chart that start with {@code prefix}. */
    @SuppressWarnings("unchecked")
    private static List<String> legend(String chart, String prefix) {
        return ((List<Object>) CHROMIUM.browser().script("return Array.from(document.querySelectorAll("
                + "'[data-chart=\"" + chart + "\"] .u-legend .u-label')).map(function (e) { return e.textContent; });"))
                .stream().map(String::valueOf).filter(s -> s.startsWith(prefix)).toList();
    }
}

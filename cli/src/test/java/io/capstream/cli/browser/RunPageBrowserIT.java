package io.capstream.cli.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream run --html FILE} on the embedded stack and the built-in simulated engine, with
 * injected HTTP 500 answers, opened in headless Chromium: no console error, nothing loaded from the
 * network, every chart (CDFs, percentiles with their intervals' error bars, timeline, throughput and in-flight, ITL
 * histogram, error breakdown) drawn with data points. Skipped where Chromium is not installed.
 */
class RunPageBrowserIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path tmp;

    @Test
    @Timeout(240)
    void aRunPageWithFailuresDrawsEveryChartOffline() throws Exception {
        Path report = tmp.resolve("browser-run.json");
        Path html = tmp.resolve("browser-run.html");
        int code = CapstreamMain.execute("run", "--run-id", "browser-run", "--requests", "48", "--concurrency", "4",
                "--ctx-tokens", "256", "--max-tokens", "16", "--shared-prefix-tokens", "0", "--client-warmup", "0",
                "--sim-error-rate", "0.15", "--sim-seed", "7", "--output", report.toString(), "--html", html.toString());
        JsonNode artifact = ArtifactJson.read(report);
        assertTrue(artifact.path("failed").asInt() > 0, "the sim injected failures: " + artifact.path("failed"));
        assertEquals(48, artifact.path("completed").asInt() + artifact.path("failed").asInt());
        assertEquals(1, code, "exit 1: some requests failed");
        PageAssertions.assertSelfContainedFile(html);

        PageCheck check = CHROMIUM.browser().open(html.toUri(), "run-page");

        PageAssertions.assertDrawnOffline(check, 6);
        assertTrue(check.drawnCharts() >= 6, check.describe());
        // the sim serves /metrics: --server-metrics auto scraped it, and its charts are drawn too
        JsonNode sm = artifact.path("capstream").path("server_metrics");
        assertTrue(sm.path("scrapes").asInt() >= 2, "scrapes: " + sm);
        double running = sm.path("series").path("requests_running").path("max").asDouble();
        assertTrue(running >= 1 && running <= 4, "at most the run's 4 streams at once: " + running);
        // issue 30: the HTTP phases, a stacked bar per percentile
        for (String id : List.of("server-queue", "server-token-rate", "http-phases")) {
            assertThat(check.charts()).as(id + " drew: " + check.describe())
                    .anyMatch(c -> c.id().equals(id) && c.rendered());
        }
        assertThat(check.html()).as("the page names its run").contains("browser-run");
        // issue 32: the percentile chart's error bars, one per percentile with an interval in the report
        int intervals = 0;
        for (String measure : List.of("ttft_ms", "e2e_ms")) {
            for (String p : List.of("p50", "p95", "p99")) {
                intervals += artifact.path("capstream").path("statistics").path(measure).path(p + "_ci").isArray() ? 1 : 0;
            }
        }
        assertThat(intervals).as("the run's intervals (p50 has one at this size, p95 and p99 not)").isEqualTo(2);
        assertThat(String.valueOf(CHROMIUM.browser().script("return document.querySelector("
                + "'[data-chart=\"percentile-intervals\"]').getAttribute('data-error-bars');")))
                .as("error bars drawn on the percentile chart").isEqualTo(String.valueOf(intervals));

        for (int width : new int[] {1400, 1920}) {
            CHROMIUM.browser().viewport(width, 1000);
            PageCheck wide = CHROMIUM.browser().open(html.toUri(), "run-page-" + width);
            PageAssertions.assertDrawnOffline(wide, 6);
            PageAssertions.assertFitsViewport(CHROMIUM.browser(), wide);
        }
        assertFailuresStandOut(artifact.path("failed").asInt());
        assertTheLastBucketEndsWithTheRun(artifact);
    }

    /**
     * Failures on the per-request timeline: a legend entry per error type with its count, in a colour no other
     * series of the chart has, and drawn (at least a few pixels of that colour per failure on the canvas).
     */
    @SuppressWarnings("unchecked")
    private static void assertFailuresStandOut(int failed) {
        Map<String, Object> seen = (Map<String, Object>) CHROMIUM.browser().script("""
                var box = document.querySelector('[data-chart="timeline"]');
                var rows = Array.from(box.querySelectorAll('.u-legend tr.u-series')).slice(1).map(function (tr) {
                  return {label: tr.querySelector('.u-label').textContent,
                          color: getComputedStyle(tr.querySelector('.u-marker')).borderTopColor};
                });
                var failure = rows.filter(function (r) { return r.label.indexOf('failed: ') === 0; });
                var canvas = box.querySelector('canvas');
                var px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                var rgb = failure.length ? failure[0].color.match(/\\d+/g).map(Number) : [-1, -1, -1];
                var n = 0;
                for (var i = 0; i < px.length; i += 4) {
                  if (px[i] === rgb[0] && px[i + 1] === rgb[1] && px[i + 2] === rgb[2] && px[i + 3] === 255) {
                    n++;
                  }
                }
                return {rows: rows, pixels: n};""");
        List<Map<String, Object>> rows = (List<Map<String, Object>>) seen.get("rows");
        List<Map<String, Object>> failures = rows.stream()
                .filter(r -> String.valueOf(r.get("label")).startsWith("failed: ")).toList();
        assertEquals(1, failures.size(), "one error type (HTTP 500): " + rows);
        Map<String, Object> f = failures.get(0);
        assertEquals("failed: HTTPError (" + failed + ")", f.get("label"), "the legend counts them: " + rows);
        assertEquals("rgb(214, 39, 40)", f.get("color"), "failures are red: " + rows);
        assertTrue(rows.stream().filter(r -> r != f).noneMatch(r -> r.get("color").equals(f.get("color"))),
                "no other series is red: " + rows);
        long pixels = ((Number) seen.get("pixels")).longValue();
        assertTrue(pixels >= 10L * failed, "each failure's cross covers pixels of its colour: " + pixels + " for "
                + failed + " failures");
    }

    /**
     * Issue 30: an open-loop run's page draws offered against achieved arrival rate (starts per second against the
     * configured rate) and lists the achieved and configured inter-arrival CV.
     */
    @Test
    @Timeout(240)
    void anOpenLoopRunPageDrawsOfferedAgainstAchievedRate() throws Exception {
        Path report = tmp.resolve("browser-open.json");
        Path html = tmp.resolve("browser-open.html");
        int code = CapstreamMain.execute("run", "--run-id", "browser-open", "--requests", "60", "--arrival", "poisson",
                "--rate", "20", "--ctx-tokens", "256", "--max-tokens", "8", "--shared-prefix-tokens", "0",
                "--client-warmup", "0", "--sim-seed", "7", "--output", report.toString(), "--html", html.toString());
        assertThat(code).as("exit code").isZero();
        JsonNode load = ArtifactJson.read(report).path("capstream").path("load");
        assertThat(load.path("configured_interarrival_cv").asDouble(-1)).as("poisson: %s", load).isEqualTo(1.0);
        assertThat(load.path("interarrival_cv").asDouble(-1)).as("achieved CV of 60 Poisson starts: %s", load)
                .isPositive();
        // the achieved starts follow the seeded schedule only while the client keeps up with it: one stall of the
        // client's threads for a second on a busy machine bunches 20 starts behind it and lifts the CV above 2
        if (!load.path("behind_schedule").asBoolean()) {
            assertThat(load.path("interarrival_cv").asDouble(-1)).as("achieved CV of 60 Poisson starts: %s", load)
                    .isBetween(0.5, 1.6);
        } else {
            System.out.println("behind schedule (" + load + "): the achieved CV is not checked against Poisson's");
        }
        PageCheck check = CHROMIUM.browser().open(html.toUri(), "run-page-open");
        PageAssertions.assertDrawnOffline(check, 6);
        assertThat(check.charts()).as("arrival-rate drew: " + check.describe())
                .anyMatch(c -> c.id().equals("arrival-rate") && c.rendered());
        Object labels = CHROMIUM.browser().script("""
                var box = document.querySelector('[data-chart="arrival-rate"]');
                return Array.from(box.querySelectorAll('.u-legend tr.u-series .u-label'))
                    .map(function (l) { return l.textContent; });""");
        assertThat(((List<?>) labels).stream().map(String::valueOf).toList()).as("legend")
                .contains("offered req/s", "achieved req/s (starts)");
        assertThat(check.html()).contains("inter-arrival CV (configured)");
    }

    /** The completed-requests chart's x ends at the run's last end: the last, partial bucket is drawn over its width. */
    private static void assertTheLastBucketEndsWithTheRun(JsonNode artifact) {
        double lastEnd = 0;
        for (JsonNode e : artifact.path("capstream").path("timeline").path("end_ms")) {
            lastEnd = Math.max(lastEnd, e.asDouble() / 1000);
        }
        Object x = CHROMIUM.browser().script("""
                var charts = JSON.parse(document.getElementById('capstream-charts').textContent).charts;
                var c = charts.filter(function (c) { return c.id === 'request-throughput'; })[0];
                return [c.x[c.x.length - 1], c.series[0].y[c.series[0].y.length - 1],
                        c.series[0].y[c.series[0].y.length - 2]];""");
        List<?> last = (List<?>) x;
        assertEquals(lastEnd, ((Number) last.get(0)).doubleValue(), 1e-9, "x ends at the run's last end: " + last);
        assertEquals(((Number) last.get(2)).doubleValue(), ((Number) last.get(1)).doubleValue(), 1e-12,
                "the last bucket's rate is held to the end: " + last);
    }
}

package io.capstream.cli.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.html.Chart;
import io.capstream.aggregator.html.HtmlPage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page script of the report pages ({@code charts.js}) on small pages built with {@link HtmlPage}, in
 * headless Chromium: tick labels of a narrow axis stay distinct, and a chart with many long series labels
 * keeps its legend and title inside its card. Skipped where Chromium is not installed.
 */
class ChartScriptBrowserIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aNarrowAxisHasDistinctTickLabels() throws Exception {
        // per-request mean ITLs between 16.70 and 16.90 ms: ticks every 0.02 or 0.05 ms read "16.8" twice when
        // every label had one decimal
        int n = 41;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 16.70 + i * 0.005;
            y[i] = (i + 1.0) / n;
        }
        Path file = dir.resolve("ticks.html");
        Files.writeString(file, HtmlPage.titled("ticks").chart(new Chart("itl-cdf", "ITL", "mean ITL (ms)",
                "fraction of requests", Chart.Kind.STEP, x, List.of(new Chart.Series("ITL", y)))).render(),
                StandardCharsets.UTF_8);

        for (int width : new int[] {1400, 1920}) {
            CHROMIUM.browser().viewport(width, 900);
            PageCheck check = CHROMIUM.browser().open(file.toUri(), "ticks-" + width);
            PageAssertions.assertDrawnOffline(check, 1);
            // draw the page's chart again to get its uPlot instance, and read the labels uPlot drew on each axis
            // (uPlot draws after the script returns: its axes' labels are read once they are there)
            CHROMIUM.browser().script("""
                    var chart = JSON.parse(document.getElementById('capstream-charts').textContent).charts[0];
                    var box = document.createElement('div');
                    box.style.width = document.querySelector('.chart').clientWidth + 'px';
                    document.body.appendChild(box);
                    window.ticksPlot = capstreamChart(box, chart);""");
            String read = "return window.ticksPlot.axes.every(function (a) { return Array.isArray(a._values); })"
                    + " ? window.ticksPlot.axes.map(function (a) { return a._values; }) : null;";
            Object axes = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> CHROMIUM.browser().script(read), java.util.Objects::nonNull);
            for (Object axis : (List<?>) axes) {
                List<String> labels = new ArrayList<>();
                ((List<?>) axis).forEach(v -> labels.add(String.valueOf(v)));
                assertTrue(labels.size() >= 3, "ticks drawn at " + width + " px: " + labels);
                assertEquals(labels.size(), new HashSet<>(labels).size(), "distinct tick labels at " + width
                        + " px: " + labels);
            }
        }
    }

    @Test
    @Timeout(60)
    void manyLongSeriesLabelsStayInsideTheirCard() throws Exception {
        double[] x = {1, 2, 3, 4};
        List<Chart.Series> series = new ArrayList<>();
        for (String p : List.of("p50", "p95", "p99")) {
            series.add(new Chart.Series("ITL " + p + " (per-request mean)", new double[] {16, 17, 18, 19}));
            series.add(new Chart.Series("inter-chunk " + p, new double[] {20, 21, 22, 23}));
        }
        series.add(new Chart.Series("SLO itl_p95_ms<=20", new double[] {20, 20, 20, 20}, Chart.Series.Style.DASHED));
        series.add(new Chart.Series("max load meeting SLOs", new double[] {Double.NaN, Double.NaN, 18, Double.NaN},
                Chart.Series.Style.MARKERS));
        HtmlPage page = HtmlPage.titled("legends").beginGrid();
        page.chart(new Chart("itl-curve", "ITL percentiles against throughput", "achieved request throughput (req/s)",
                "latency (ms)", Chart.Kind.LINE, x, series));
        page.chart(new Chart("other", "Throughput against offered load", "concurrency (requests in flight)",
                "requests/s", Chart.Kind.LINE, x, List.of(new Chart.Series("completed req/s", x))));
        Path file = dir.resolve("legends.html");
        Files.writeString(file, page.endGrid().render(), StandardCharsets.UTF_8);

        for (int width : new int[] {1400, 1920}) {
            CHROMIUM.browser().viewport(width, 900);
            PageCheck check = CHROMIUM.browser().open(file.toUri(), "legends-" + width);
            PageAssertions.assertDrawnOffline(check, 2);
            PageAssertions.assertFitsViewport(CHROMIUM.browser(), check);
        }
    }

    /** Issue 30's HTTP phases: a STACKED chart is drawn as bars of running sums, the first series at the bottom. */
    @Test
    @Timeout(60)
    @SuppressWarnings("unchecked")
    void stackedBarsStackTheSeriesInOrder() throws Exception {
        Path file = dir.resolve("stacked.html");
        Files.writeString(file, HtmlPage.titled("stacked").chart(new Chart("http-phases", "phases", "percentile", "ms",
                Chart.Kind.STACKED, new double[] {0, 1, 2}, List.of(new Chart.Series("blocked", new double[] {1, 2, 3}),
                new Chart.Series("connect", new double[] {10, 20, 30}),
                new Chart.Series("waiting", new double[] {100, 200, 300}))),
                io.capstream.aggregator.html.ChartOptions.NONE.withCategories(List.of("p50", "p95", "p99")))
                .render(), StandardCharsets.UTF_8);
        PageCheck check = CHROMIUM.browser().open(file.toUri(), "stacked");
        PageAssertions.assertDrawnOffline(check, 1);
        java.util.Map<String, Object> drawn = (java.util.Map<String, Object>) CHROMIUM.browser().script("""
                var chart = JSON.parse(document.getElementById('capstream-charts').textContent).charts[0];
                var box = document.createElement('div');
                box.style.width = '600px';
                document.body.appendChild(box);
                var u = window.capstreamChart(box, chart);
                return {labels: u.series.slice(1).map(function (s) { return s.label; }),
                        top: u.data[1], bottom: u.data[3]};""");
        org.assertj.core.api.Assertions.assertThat((List<Object>) drawn.get("labels"))
                .as("series drawn top segment first").containsExactly("waiting", "connect", "blocked");
        org.assertj.core.api.Assertions.assertThat(((List<Object>) drawn.get("top")).stream()
                .map(v -> ((Number) v).doubleValue()).toList()).as("the top bar is the running sum")
                .containsExactly(111.0, 222.0, 333.0);
        org.assertj.core.api.Assertions.assertThat(((List<Object>) drawn.get("bottom")).stream()
                .map(v -> ((Number) v).doubleValue()).toList()).as("the bottom segment is the first series")
                .containsExactly(1.0, 2.0, 3.0);
    }
}

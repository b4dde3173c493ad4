package io.capstream.cli.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.capstream.aggregator.html.HtmlAssets;
import java.awt.image.BufferedImage;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser harness itself, on small pages written by the test: it must see what the real
 * browser tests assert (drawn charts, console errors, uncaught exceptions, network loads), or
 * those tests would pass for the wrong reason. Skipped where Chromium is not installed.
 */
class HeadlessChromiumIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path dir;

    private URI page(String name, String head, String body) throws Exception {
        Path file = dir.resolve(name + ".html");
        Files.writeString(file, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + name + "</title>" + head
                + "</head><body>" + body + "</body></html>", StandardCharsets.UTF_8);
        return file.toUri();
    }

    @Test
    @Timeout(120)
    void anInlineUplotChartIsDrawnWithItsPointsAndNothingElseIsReported() throws Exception {
        String script = """
                var el = document.querySelector('.chart');
                var x = [1, 2, 3, 4, 5], y = [3, 1, 4, 1, 5];
                new uPlot({title: 'self-test', width: 600, height: 300, series: [{}, {label: 'y', stroke: '#1f77b4'}]},
                          [x, y], el);
                el.setAttribute('data-points', String(x.length));
                """;
        URI uri = page("uplot", "<style>" + HtmlAssets.uplotCss() + "</style><script>" + HtmlAssets.uplotJs()
                + "</script>", "<h1>self-test</h1><div class=\"chart\" data-chart=\"c1\" data-points=\"0\"></div><script>"
                + script + "</script><div style=\"height: 1600px\">below the fold</div>");

        PageCheck check = CHROMIUM.browser().open(uri, "self-test-uplot");

        assertTrue(check.chartsReady(), check.describe());
        assertEquals(List.of(new PageCheck.ChartState("c1", 5, check.charts().get(0).canvases(), 0)), check.charts());
        assertTrue(check.charts().get(0).canvases() >= 1, "uPlot draws on a canvas: " + check.charts());
        assertEquals(1, check.drawnCharts());
        assertEquals(List.of(), check.consoleErrors());
        assertEquals(List.of(), check.networkRequests());
        assertEquals("uplot", check.title());
        assertThat(check.html()).as("the DOM after the scripts ran").contains("class=\"uplot");
        BufferedImage png = ImageIO.read(check.screenshot().toFile());
        assertEquals(Path.of("target", "browser-screenshots", "self-test-uplot.png"), check.screenshot());
        assertTrue(png.getWidth() >= 600 && png.getHeight() > 1600, "the whole page, beyond the 900 px viewport: "
                + png.getWidth() + "x" + png.getHeight());
    }

    @Test
    @Timeout(120)
    void aPageLeftOpenDoesNotLogItsErrorsIntoTheNextPagesCheck() throws Exception {
        // a live dashboard's refresh timer, its server stopped by its test, logged failed fetches between the log
        // drain and the next page's load: the next test failed on them (CI under load)
        URI noisy = page("noisy", "", "<p>errors</p><script>setInterval(function () { console.error('old page'); },"
                + " 1);</script>");
        URI quiet = page("quiet", "", "<p>quiet</p>");
        CHROMIUM.browser().open(noisy, "self-test-noisy");

        PageCheck check = CHROMIUM.browser().open(quiet, "self-test-quiet");

        assertThat(check.consoleErrors()).as("console errors of the quiet page, after the noisy one").isEmpty();
    }

    @Test
    @Timeout(120)
    void aScriptFromTheNetworkIsReportedEvenWhenItFailsToLoad() throws Exception {
        URI uri = page("network", "<script src=\"http://127.0.0.1:9/x.js\"></script>", "<p>loads a script</p>");

        PageCheck check = CHROMIUM.browser().open(uri, "self-test-network");

        assertEquals(List.of("http://127.0.0.1:9/x.js"), check.networkRequests());
        assertThat(check.consoleErrors()).as("the failed load is a console error too: " + check.consoleErrors())
                .anyMatch(e -> e.contains("http://127.0.0.1:9/x.js"));
        assertTrue(check.chartsReady(), "no chart to wait for");
        assertEquals(List.of(), check.charts());
    }

    @Test
    @Timeout(120)
    void consoleErrorsAndUncaughtExceptionsAreReported() throws Exception {
        URI uri = page("errors", "", "<script>console.error('deliberate console error 1');</script>"
                + "<script>throw new Error('deliberate uncaught 2');</script><script>console.log('not an error');</script>");

        PageCheck check = CHROMIUM.browser().open(uri, "self-test-errors");

        assertEquals(2, check.consoleErrors().size(), check.consoleErrors().toString());
        assertThat(check.consoleErrors().get(0)).as(check.consoleErrors().toString())
                .contains("deliberate console error 1");
        assertThat(check.consoleErrors().get(1)).as(check.consoleErrors().toString())
                .contains("Uncaught Error: deliberate uncaught 2");
        assertEquals(List.of(), check.networkRequests());
    }

    @Test
    @Timeout(120)
    void anHttpPageCountsOnlyOtherOriginsAndAnUndrawnChartTimesOut() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        Map<String, String> files = Map.of(
                "/", "<!DOCTYPE html><html><head><title>served</title><script src=\"/same.js\"></script>"
                        + "<script src=\"http://127.0.0.1:9/other.js\"></script></head><body>"
                        + "<div class=\"chart\" data-chart=\"never\" data-points=\"0\"></div></body></html>",
                "/same.js", "document.title = 'served and scripted';");
        server.createContext("/", exchange -> {
            String body = files.getOrDefault(exchange.getRequestURI().getPath(), "");
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type",
                    exchange.getRequestURI().getPath().endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8");
            exchange.sendResponseHeaders(body.isEmpty() ? 404 : 200, body.isEmpty() ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");

            PageCheck check = CHROMIUM.browser().open(uri, "self-test-http");

            assertEquals(List.of("http://127.0.0.1:9/other.js"), check.networkRequests());
            assertEquals("served and scripted", check.title(), "the same-origin script ran");
            assertFalse(check.chartsReady(), "the chart never gets points");
            assertEquals(List.of(new PageCheck.ChartState("never", 0, 0, 0)), check.charts());
            assertEquals(0, check.drawnCharts());
        } finally {
            server.stop(0);
        }
    }
}

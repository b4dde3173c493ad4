package io.capstream.cli.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/** The checks every generated page must pass in the browser (issue 13, item 6). */
final class PageAssertions {
    private PageAssertions() {
    }

    /**
     * Asserts: no console error, nothing loaded from the network, at least {@code minCharts} charts,
     * each with data points and a rendered canvas or svg, and a non-empty screenshot.
     *
     * @param check     what the browser saw; not null
     * @param minCharts the fewest charts the page must have
     * @throws AssertionError when a check fails (the message lists charts, errors and requests)
     */
    static void assertDrawnOffline(PageCheck check, int minCharts) throws Exception {
        assertEquals(List.of(), check.consoleErrors(), "console errors on " + check.describe());
        assertEquals(List.of(), check.networkRequests(), "network requests on " + check.describe());
        assertTrue(check.charts().size() >= minCharts, "at least " + minCharts + " charts: " + check.describe());
        for (PageCheck.ChartState chart : check.charts()) {
            assertTrue(chart.points() > 0, "chart " + chart.id() + " has no data points: " + check.describe());
            assertTrue(chart.rendered(), "chart " + chart.id() + " has no canvas or svg: " + check.describe());
        }
        assertTrue(check.chartsReady(), check.describe());
        assertTrue(Files.size(check.screenshot()) > 1000, "screenshot " + check.screenshot());
    }

    /**
     * Asserts that a generated file references nothing outside itself: no {@code script[src]}, no
     * stylesheet, icon or font link (but inline {@code data:} ones), no {@code http(s):} {@code src} attribute.
     *
     * @param file the HTML file; not null
     * @return the parsed document, for further checks
     * @throws AssertionError when the file references anything
     */
    static Document assertSelfContainedFile(Path file) throws Exception {
        Document doc = Jsoup.parse(file.toFile(), "UTF-8");
        assertEquals(0, doc.select("script[src]").size(), "scripts are inline: " + doc.select("script[src]"));
        String linked = "link[href]:not([href^=data:])";
        assertEquals(0, doc.select(linked).size(), "no linked stylesheets, icons or fonts: " + doc.select(linked));
        assertEquals(0, doc.select("[src~=(?i)^(https?:)?//]").size(), "no remote src: " + doc.select("[src~=(?i)^(https?:)?//]"));
        return doc;
    }
}

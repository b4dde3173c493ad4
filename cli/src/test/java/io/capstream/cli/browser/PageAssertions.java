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
     * Layout problems of the page shown now, one sentence each: the page is wider than the viewport (it
     * scrolls sideways); a chart card's legend, title text or uPlot root sticks out of the card; a title's
     * text is clipped; a drawn chart has no visible title (uPlot's {@code .u-title} or the card's
     * {@code h3}). Cards are {@code .figure} (report pages) and {@code .chart-box} (dashboard).
     */
    private static final String LAYOUT_PROBLEMS = """
            var problems = [];
            var doc = document.scrollingElement;
            if (doc.scrollWidth > window.innerWidth) {
              problems.push('the page is ' + doc.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
            }
            function inside(what, r, card, c) {
              if (r.width > 0 && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) {
                problems.push(card + ': its ' + what + ' spans x ' + Math.round(r.left) + '..' + Math.round(r.right)
                    + ', the card ' + Math.round(c.left) + '..' + Math.round(c.right));
              }
            }
            document.querySelectorAll('.figure, .chart-box').forEach(function (f) {
              var chart = f.querySelector('.chart');
              if (!chart || !chart.querySelector('canvas')) {
                return;
              }
              var name = chart.getAttribute('data-chart') || chart.id || 'a chart';
              var c = f.getBoundingClientRect();
              var legend = f.querySelector('.u-legend');
              if (legend) {
                inside('legend', legend.getBoundingClientRect(), name, c);
              }
              var root = f.querySelector('.uplot');
              if (root) {
                inside('uPlot root', root.getBoundingClientRect(), name, c);
              }
              var title = f.querySelector('.u-title') || f.querySelector('h3');
              if (!title || title.textContent.trim() === '') {
                problems.push(name + ': no title');
                return;
              }
              var range = document.createRange();
              range.selectNodeContents(title);
              inside('title text "' + title.textContent + '"', range.getBoundingClientRect(), name, c);
              if (title.scrollWidth > title.clientWidth + 1) {
                problems.push(name + ': its title "' + title.textContent + '" is clipped (' + title.scrollWidth + ' px in '
                    + title.clientWidth + ')');
              }
            });
            return problems;""";

    /**
     * Asserts the page shown now in the browser fits its viewport: no sideways scrolling, every chart's
     * legend, title and plot inside its card, every drawn chart with a visible, unclipped title.
     *
     * @param browser the browser showing the page; not null
     * @param check   what {@link HeadlessChromium#open} saw (for the message); not null
     * @throws AssertionError listing every problem found
     */
    static void assertFitsViewport(HeadlessChromium browser, PageCheck check) {
        Object problems = browser.script(LAYOUT_PROBLEMS);
        assertEquals(List.of(), problems, "layout of " + check.uri() + " at "
                + browser.script("return window.innerWidth;") + " px (screenshot " + check.screenshot() + ")");
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

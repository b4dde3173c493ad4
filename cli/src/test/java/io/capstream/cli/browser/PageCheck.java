package io.capstream.cli.browser;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What headless Chromium saw on one page, collected by {@link HeadlessChromium#open}.
 *
 * @param uri              the page that was loaded; not null
 * @param title            the document title after loading; not null
 * @param chartsReady      true when every {@code .chart} container had {@code data-points > 0} before the timeout
 *                         (also true when the page has no chart)
 * @param charts           the {@code .chart} containers in document order; not null
 * @param consoleErrors    the browser log's SEVERE entries (console.error calls, uncaught exceptions, failed
 *                         loads), each as its message; not null
 * @param networkRequests  URLs the page requested from the network: for a {@code file:} page every request other
 *                         than the page itself (inline {@code data:}/{@code blob:} URLs excepted), for an
 *                         {@code http(s):} page every request to another origin; blocked and failed requests
 *                         included; not null
 * @param html             the DOM after the page's scripts ran, serialised; not null
 * @param screenshot       the full-page PNG screenshot; not null
 */
public record PageCheck(URI uri, String title, boolean chartsReady, List<ChartState> charts,
                        List<String> consoleErrors, List<String> networkRequests, String html, Path screenshot) {
    /** Checks the components and copies the lists. */
    public PageCheck {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(title, "title");
        charts = List.copyOf(charts);
        consoleErrors = List.copyOf(consoleErrors);
        networkRequests = List.copyOf(networkRequests);
        Objects.requireNonNull(html, "html");
        Objects.requireNonNull(screenshot, "screenshot");
    }

    /** @return how many charts have at least one point and at least one rendered canvas or svg element */
    public long drawnCharts() {
        return charts.stream().filter(c -> c.points() > 0 && c.rendered()).count();
    }

    /** @return a one-line description for assertion messages (charts, errors and requests) */
    public String describe() {
        return uri + ": charts " + charts + ", console errors " + consoleErrors + ", network requests "
                + networkRequests;
    }

    /**
     * One {@code .chart} container.
     *
     * @param id       its {@code data-chart} attribute, or "" when absent; not null
     * @param points   its {@code data-points} attribute, or -1 when absent or not a number
     * @param canvases {@code canvas} elements inside it
     * @param svgs     {@code svg} elements inside it
     */
    public record ChartState(String id, long points, long canvases, long svgs) {
        /** Checks the components. */
        public ChartState {
            Objects.requireNonNull(id, "id");
        }

        /** @return true when the chart library rendered something (a canvas or an svg) */
        public boolean rendered() {
            return canvases + svgs > 0;
        }
    }
}

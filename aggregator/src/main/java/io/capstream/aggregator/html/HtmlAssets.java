package io.capstream.aggregator.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The chart library embedded in every page: uPlot, pinned in the build ({@code org.webjars.npm:uplot},
 * version {@value #UPLOT_VERSION}) and read from its webjar on the classpath, so a page never loads
 * anything from the network.
 */
public final class HtmlAssets {
    /** The pinned uPlot version (the webjar's, see the parent POM's {@code uplot.version}). */
    public static final String UPLOT_VERSION = "1.6.30";
    private static final String WEBJAR = "META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
    private static final String OWN = "io/capstream/aggregator/html/";

    private HtmlAssets() {
    }

    /**
     * uPlot's minified IIFE build (defines the global {@code uPlot}).
     *
     * @return the script text, UTF-8 decoded
     * @throws UncheckedIOException when the webjar is not on the classpath
     */
    public static String uplotJs() {
        return resource(WEBJAR + "uPlot.iife.min.js");
    }

    /**
     * uPlot's stylesheet.
     *
     * @return the CSS text
     * @throws UncheckedIOException when the webjar is not on the classpath
     */
    public static String uplotCss() {
        return resource(WEBJAR + "uPlot.min.css");
    }

    /**
     * The page script of capstream's pages ({@code charts.js} next to this class): draws every chart of the
     * page's {@code capstream-charts} JSON when the page loads, and defines the global function
     * {@code capstreamChart(container, chartJson)} that draws one chart (the JSON shape is documented in
     * {@link HtmlPage}) and returns its uPlot instance. Needs {@link #uplotJs()} loaded first.
     *
     * @return the script text
     * @throws UncheckedIOException when the resource is missing
     */
    public static String chartsJs() {
        return resource(OWN + "charts.js");
    }

    /**
     * The stylesheet of capstream's pages ({@code page.css} next to this class): light background,
     * readable tables with right-aligned numbers ({@code td.num}), charts in a responsive grid.
     *
     * @return the CSS text
     * @throws UncheckedIOException when the resource is missing
     */
    public static String pageCss() {
        return resource(OWN + "page.css");
    }

    /**
     * A text resource of the classpath, UTF-8.
     *
     * @param path classpath path without a leading slash
     * @return its text
     * @throws UncheckedIOException when it is missing or unreadable
     */
    static String resource(String path) {
        try (InputStream in = HtmlAssets.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing classpath resource " + path));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

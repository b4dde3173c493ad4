package io.capstream.aggregator.api;

import io.capstream.aggregator.html.HtmlAssets;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live dashboard that {@code GET /} serves: one self-contained HTML document with inline CSS, the
 * inlined uPlot library ({@link HtmlAssets}) and an inline script ({@code dashboard.js}) that polls the
 * same-origin API every 5 s through relative URLs ({@code api/slos}, {@code api/runs}, {@code api/summaries},
 * {@code api/alerts?active=true}, and for the charts' marks {@code api/alerts?from=} and {@code api/changes?from=})
 * and shows the runs (the newest 20, each linking to its page
 * {@code runs/<id>}, with a line saying how many there are and a "show more" button adding 20 at a time),
 * the SLOs, the window summaries over time (TTFT p50/p95/p99, E2E p95, completed requests/s, output
 * tokens/s, goodput, requests and error rate per window, and any other percentile an SLO names; one series
 * per target, model and context bucket; each SLO a dashed line at its threshold on its metric's chart), the
 * percentile charts' error bars (each window's 95% interval), each alert's firing period and each change point
 * marked on its metric's chart (and listed under it; issue 32), the active SLO breaches, the time of the last refresh and an error line while the API cannot be reached. The
 * document holds no data and loads nothing but the API.
 *
 * <p>Every chart is a {@code <div class="chart" data-chart="ID" data-points="N">} whose
 * {@code data-points} the script sets to the number of finite values uPlot drew; a metric without values
 * gets no chart container.
 */
public final class DashboardPage {
    /** Classpath folder of the dashboard's own script and stylesheet. */
    static final String RESOURCES = "io/capstream/aggregator/dashboard/";
    private static final Pattern END_SCRIPT = Pattern.compile("</(script)", Pattern.CASE_INSENSITIVE);
    private static final Pattern END_STYLE = Pattern.compile("</(style)", Pattern.CASE_INSENSITIVE);

    private DashboardPage() {
    }

    /**
     * Renders the dashboard document (the same text on every call; it carries no data).
     *
     * @return the HTML document, UTF-8 text
     * @throws UncheckedIOException when the uPlot webjar or the dashboard resources are not on the classpath
     */
    public static String render() {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>capstream live dashboard</title>\n"
                + "<link rel=\"icon\" href=\"data:,\">\n"
                + "<style>\n" + inStyle(HtmlAssets.uplotCss()) + "\n</style>\n"
                + "<style>\n" + inStyle(resource(RESOURCES + "dashboard.css")) + "\n</style>\n"
                + "</head>\n<body>\n"
                + "<header><h1>capstream live dashboard</h1>"
                + "<p class=\"status\"><span id=\"updated\">not updated yet</span>"
                + " <span id=\"error\" class=\"error\" role=\"alert\" hidden></span></p></header>\n"
                + "<main>\n"
                + "<section id=\"runs-section\"><h2>Runs</h2><div id=\"runs\"><p class=\"empty\">loading…</p></div></section>\n"
                + "<section id=\"summaries-section\"><h2>Window summaries</h2>"
                + "<p class=\"controls\"><label>span <select id=\"span\">"
                + "<option value=\"3600000\">last 1 h</option>"
                + "<option value=\"21600000\">last 6 h</option>"
                + "<option value=\"86400000\" selected>last 24 h</option>"
                + "</select></label></p>"
                + "<p id=\"slos\" class=\"note\">SLOs: loading…</p>"
                + "<div id=\"summaries\"><p class=\"empty\">loading…</p></div></section>\n"
                + "<section id=\"alerts-section\"><h2>Active alerts</h2><div id=\"alerts\"><p class=\"empty\">loading…</p></div></section>\n"
                + "</main>\n"
                + "<script>\n" + inScript(HtmlAssets.uplotJs()) + "\n</script>\n"
                + "<script>\n" + inScript(resource(RESOURCES + "dashboard.js")) + "\n</script>\n"
                + "</body>\n</html>\n";
    }

    /** @return the script text with every {@code </script} written {@code <\/script} (same meaning in JS strings and regexes) */
    static String inScript(String js) {
        return END_SCRIPT.matcher(js).replaceAll(Matcher.quoteReplacement("<\\/") + "$1");
    }

    /** @return the stylesheet with every {@code </style} escaped as a CSS escape sequence */
    static String inStyle(String css) {
        return END_STYLE.matcher(css).replaceAll(Matcher.quoteReplacement("<\\/") + "$1");
    }

    private static String resource(String path) {
        try (InputStream in = DashboardPage.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing classpath resource " + path));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

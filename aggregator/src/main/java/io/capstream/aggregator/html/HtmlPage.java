package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builder of one self-contained HTML document: inline CSS, the inline uPlot library
 * ({@link HtmlAssets}), the charts' data inline as JSON and the inline page script
 * ({@link HtmlAssets#chartsJs()}); nothing is loaded from the network. All text given to the builder is
 * HTML-escaped; the chart JSON escapes {@code <}, {@code >} and {@code &} as {@code \u003c} etc., so no
 * text can end its {@code <script>} element.
 *
 * <p>Every chart is a container {@code <div class="chart" id="chart-ID" data-chart="ID" data-points="0">}
 * ; when the page loads, the script draws it with uPlot and sets {@code data-points} to the number of
 * finite y values drawn (all series).
 *
 * <p>The charts' data is one JSON element, {@code <script type="application/json" id="capstream-charts">};
 * its format is {@link ChartJson}'s.
 *
 * <p>Not thread-safe (a builder); {@link #render()} may be called more than once.
 */
public final class HtmlPage {
    private static final Pattern CHART_ID = Pattern.compile("[a-z0-9-]+");
    private static final Pattern NUMBER = Pattern.compile(
            "[-+]?(\\d[\\d,]*(\\.\\d+)?|\\.\\d+)([eE][-+]?\\d+)?\\s*(%|ms|s|x|req/s|tok/s|tokens/s)?");
    private static final Pattern SCHEME = Pattern.compile("^\\s*[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);

    private final String title;
    private final StringBuilder body = new StringBuilder(4096);
    private final ArrayNode charts = JsonNodeFactory.instance.arrayNode();
    private final Set<String> chartIds = new HashSet<>();

    private HtmlPage(String title) {
        this.title = Objects.requireNonNull(title, "title");
    }

    /**
     * A table cell: text, optionally a link.
     *
     * @param text shown text (escaped); null is shown as empty
     * @param href a relative link target (e.g. {@code run-1.html}); null for plain text
     */
    public record Cell(String text, String href) {
        /**
         * @param text shown text; null is shown as empty
         * @return a plain cell
         */
        public static Cell text(String text) {
            return new Cell(text, null);
        }

        /**
         * @param text shown text
         * @param href relative link target, or null for plain text
         * @return a cell that links to {@code href}
         */
        public static Cell link(String text, String href) {
            return new Cell(text, href);
        }
    }

    /**
     * A new page.
     *
     * @param title the document title, also the page's {@code <h1>} (escaped); not null
     * @return the builder
     */
    public static HtmlPage titled(String title) {
        return new HtmlPage(title);
    }

    /**
     * A section heading ({@code <h2>}).
     *
     * @param text heading text (escaped); not null
     * @return this
     */
    public HtmlPage heading(String text) {
        body.append("<h2>").append(escape(text)).append("</h2>\n");
        return this;
    }

    /**
     * A sub-section heading ({@code <h3>}).
     *
     * @param text heading text (escaped); not null
     * @return this
     */
    public HtmlPage subheading(String text) {
        body.append("<h3>").append(escape(text)).append("</h3>\n");
        return this;
    }

    /**
     * A paragraph of text.
     *
     * @param text the text (escaped); not null
     * @return this
     */
    public HtmlPage paragraph(String text) {
        body.append("<p>").append(escape(text)).append("</p>\n");
        return this;
    }

    /**
     * A highlighted sentence (a headline result, e.g. the largest load meeting the SLOs).
     *
     * @param text the text (escaped); not null
     * @return this
     */
    public HtmlPage headline(String text) {
        body.append("<p class=\"headline\">").append(escape(text)).append("</p>\n");
        return this;
    }

    /**
     * A muted one-line note (e.g. why a chart is absent).
     *
     * @param text the text (escaped); not null
     * @return this
     */
    public HtmlPage note(String text) {
        body.append("<p class=\"note\">").append(escape(text)).append("</p>\n");
        return this;
    }

    /**
     * A warning box (e.g. the client self-check flagged the measurement).
     *
     * @param text the text (escaped); not null
     * @return this
     */
    public HtmlPage warning(String text) {
        body.append("<p class=\"warning\">").append(escape(text)).append("</p>\n");
        return this;
    }

    /**
     * A table of text cells; cells that read as numbers (optionally with a unit such as ms or %) are right-aligned.
     *
     * @param header header cells (escaped); not null
     * @param rows   rows of cells (escaped; null cells are empty); not null
     * @return this
     */
    public HtmlPage table(List<String> header, List<List<String>> rows) {
        List<List<Cell>> cells = new ArrayList<>(rows.size());
        for (List<String> row : rows) {
            List<Cell> r = new ArrayList<>(row.size());
            for (String s : row) {
                r.add(Cell.text(s));
            }
            cells.add(r);
        }
        return tableCells(header, cells);
    }

    /**
     * A table whose cells may be links.
     *
     * @param header header cells (escaped); not null
     * @param rows   rows of cells; not null
     * @return this
     * @throws IllegalArgumentException when a link has a URL scheme (only relative links: the page stays offline)
     */
    public HtmlPage tableCells(List<String> header, List<List<Cell>> rows) {
        body.append("<table>\n<thead><tr>");
        for (String h : header) {
            body.append("<th>").append(escape(h)).append("</th>");
        }
        body.append("</tr></thead>\n<tbody>\n");
        for (List<Cell> row : rows) {
            body.append("<tr>");
            for (Cell c : row) {
                String text = c == null || c.text() == null ? "" : c.text();
                body.append(NUMBER.matcher(text.trim()).matches() ? "<td class=\"num\">" : "<td>");
                if (c != null && c.href() != null) {
                    if (SCHEME.matcher(c.href()).matches() || c.href().startsWith("//")) {
                        throw new IllegalArgumentException("only relative links are allowed: " + c.href());
                    }
                    body.append("<a href=\"").append(escape(c.href())).append("\">").append(escape(text))
                            .append("</a>");
                } else {
                    body.append(escape(text));
                }
                body.append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</tbody>\n</table>\n");
        return this;
    }

    /**
     * A chart with default options, drawn by uPlot when the page loads.
     *
     * @param chart the chart; not null
     * @return this
     * @throws IllegalArgumentException when the id is not [a-z0-9-]+ or already used on this page
     */
    public HtmlPage chart(Chart chart) {
        return chart(chart, ChartOptions.NONE);
    }

    /**
     * A chart, drawn by uPlot when the page loads.
     *
     * @param chart   the chart; not null
     * @param options x scale and caption; not null
     * @return this
     * @throws IllegalArgumentException when the id is not [a-z0-9-]+ or already used on this page
     */
    public HtmlPage chart(Chart chart, ChartOptions options) {
        if (!CHART_ID.matcher(chart.id()).matches() || !chartIds.add(chart.id())) {
            throw new IllegalArgumentException("chart id must be [a-z0-9-]+ and unique on the page: " + chart.id());
        }
        charts.add(ChartJson.of(chart, options));
        body.append("<figure class=\"figure\"><div class=\"chart\" id=\"chart-").append(chart.id())
                .append("\" data-chart=\"").append(chart.id()).append("\" data-points=\"0\"></div>");
        if (options.caption() != null) {
            body.append("<figcaption>").append(escape(options.caption())).append("</figcaption>");
        }
        body.append("</figure>\n");
        return this;
    }

    /**
     * Starts a responsive grid: the charts added until {@link #endGrid()} are laid out side by side
     * on wide screens.
     *
     * @return this
     */
    public HtmlPage beginGrid() {
        body.append("<div class=\"grid\">\n");
        return this;
    }

    /**
     * Ends the grid started by {@link #beginGrid()}.
     *
     * @return this
     */
    public HtmlPage endGrid() {
        body.append("</div>\n");
        return this;
    }

    /**
     * The whole document.
     *
     * @return the HTML text
     * @throws UncheckedIOException when an embedded asset is missing from the classpath
     */
    public String render() {
        String uplotJs = HtmlAssets.uplotJs();
        String chartsJs = HtmlAssets.chartsJs();
        String data = chartData();
        StringBuilder sb = new StringBuilder(uplotJs.length() + chartsJs.length() + data.length() + body.length()
                + 8192);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<link rel=\"icon\" href=\"data:,\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(escape(title)).append("</title>\n")
                .append("<style>\n").append(styleSafe(HtmlAssets.uplotCss())).append("\n")
                .append(styleSafe(HtmlAssets.pageCss())).append("\n</style>\n</head>\n<body>\n<main>\n")
                .append("<h1>").append(escape(title)).append("</h1>\n")
                .append(body)
                .append("<footer>capstream report page &middot; charts drawn with uPlot ")
                .append(HtmlAssets.UPLOT_VERSION).append(" (embedded)</footer>\n</main>\n")
                .append("<script type=\"application/json\" id=\"capstream-charts\">").append(data)
                .append("</script>\n")
                .append("<script>\n").append(scriptSafe(uplotJs)).append("\n</script>\n")
                .append("<script>\n").append(scriptSafe(chartsJs)).append("\n</script>\n")
                .append("</body>\n</html>\n");
        return sb.toString();
    }

    /** @return the charts' JSON, {@code {"charts":[...]}}, with {@code <}, {@code >}, {@code &} escaped */
    String chartData() {
        return ChartJson.write(charts);
    }

    /**
     * HTML-escapes text for element content and double-quoted attribute values.
     *
     * @param text any text; null gives ""
     * @return the text with {@code & < > " '} replaced by character references
     */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            String rep = switch (ch) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (rep != null && sb == null) {
                sb = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(ch);
                }
            }
        }
        return sb == null ? text : sb.toString();
    }

    private static String scriptSafe(String js) {
        if (js.toLowerCase(java.util.Locale.ROOT).contains("</script")) {
            throw new IllegalStateException("an embedded script contains </script");
        }
        return js;
    }

    private static String styleSafe(String css) {
        if (css.toLowerCase(java.util.Locale.ROOT).contains("</style")) {
            throw new IllegalStateException("an embedded stylesheet contains </style");
        }
        return css;
    }
}

package io.capstream.aggregator.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The charts' data of an {@link HtmlPage}, as JSON that is safe inside a {@code <script>} element:
 * {@code <}, {@code >} and {@code &} are written as {@code \u003c} etc., so no text can end the element.
 *
 * <p><b>Chart JSON</b> (the element {@code <script type="application/json" id="capstream-charts">} holds
 * {@code {"charts": [CHART, ...]}}; {@code capstreamChart(container, CHART)} of the page script draws one):
 * <pre>{@code
 * {"id": "ttft-cdf", "title": "...", "xLabel": "TTFT (ms)", "yLabel": "fraction of requests",
 *  "kind": "LINE" | "STEP" | "POINTS" | "BARS" | "STACKED",
 *  "x": [number, ...],                      // ascending (POINTS: any order, the script sorts)
 *  "series": [{"label": "...", "style": "DEFAULT" | "DASHED" | "MARKERS" | "FAILURE",
 *              "y": [number | null, ...],     // as long as x; null = gap (NaN in Java)
 *              "errors": [[low, high] | null, ...]}],  // optional (issue 32): an error bar per y value
 *  "xLog": false,                           // base-10 log x scale
 *  "categories": ["...", ...] | null}       // categorical x: x value i shown as categories[i]
 * }</pre>
 * {@code capstreamChart} returns the uPlot instance, sizes it to the container's width (and follows
 * resizes) and sets the container's {@code data-points}. Stateless.
 */
final class ChartJson {
    private static final ObjectWriter JSON = new ObjectMapper().writer().with(new HtmlSafeEscapes());

    private ChartJson() {
    }

    /**
     * @param charts the page's charts, each from {@link #of}; not null
     * @return {@code {"charts":[...]}} with {@code <}, {@code >}, {@code &} escaped
     */
    static String write(ArrayNode charts) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.set("charts", charts);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write chart JSON", e);
        }
    }

    /**
     * One chart's JSON (see the class doc): non-finite values become null.
     *
     * @param chart   the chart; not null
     * @param options its options; not null
     * @return a new JSON object
     */
    static ObjectNode of(Chart chart, ChartOptions options) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", chart.id());
        o.put("title", chart.title());
        o.put("xLabel", chart.xLabel());
        o.put("yLabel", chart.yLabel());
        o.put("kind", chart.kind().name());
        o.set("x", numbers(chart.x()));
        ArrayNode series = o.putArray("series");
        for (Chart.Series s : chart.series()) {
            ObjectNode so = series.addObject();
            so.put("label", s.label());
            so.put("style", s.style().name());
            so.set("y", numbers(s.y()));
            if (s.errors() != null) {
                ArrayNode errors = so.putArray("errors");
                for (double[] e : s.errors()) {
                    if (e == null || e.length != 2 || !Double.isFinite(e[0]) || !Double.isFinite(e[1])) {
                        errors.addNull();
                    } else {
                        errors.add(numbers(e));
                    }
                }
            }
        }
        o.put("xLog", options.xLog());
        if (options.xCategories() == null) {
            o.putNull("categories");
        } else {
            ArrayNode c = o.putArray("categories");
            options.xCategories().forEach(c::add);
        }
        return o;
    }

    private static ArrayNode numbers(double[] values) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode(values.length);
        for (double v : values) {
            if (Double.isFinite(v)) {
                if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                    a.add((long) v);
                } else {
                    a.add(v);
                }
            } else {
                a.addNull();
            }
        }
        return a;
    }

    /** JSON escapes that keep the text inert inside a {@code <script>} element: {@code < > &} as \\uXXXX. */
    private static final class HtmlSafeEscapes extends CharacterEscapes {
        private final int[] ascii;

        HtmlSafeEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}

package io.capstream.aggregator.html;

import java.util.List;
import java.util.Objects;

/**
 * One chart of an HTML page: shared x values and one or more y series, drawn by uPlot in the browser.
 * Values are plain doubles; {@link Double#NaN} is a gap (no point drawn).
 *
 * @param id      page-unique id, [a-z0-9-]+ (the container's {@code data-chart} attribute)
 * @param title   caption shown above the chart
 * @param xLabel  x-axis label with its unit, e.g. {@code "TTFT (ms)"}
 * @param yLabel  y-axis label with its unit, e.g. {@code "fraction of requests"}
 * @param kind    how the series are drawn
 * @param x       x values, ascending for LINE/STEP/BARS (any order for POINTS); not null
 * @param series  y series, each as long as {@code x}; at least one
 */
public record Chart(String id, String title, String xLabel, String yLabel, Kind kind, double[] x, List<Series> series) {
    /** How a chart's series are drawn. */
    public enum Kind {
        /** Straight lines between points. */
        LINE,
        /** Steps (a CDF, requests in flight). */
        STEP,
        /** Unconnected points (a per-request timeline, a scatter). */
        POINTS,
        /** Bars (a histogram, an error breakdown). */
        BARS,
        /**
         * Stacked bars: each series is one segment of the bar at each x, the first series at the bottom (a request's
         * HTTP phases per percentile); the legend shows each segment's own value.
         */
        STACKED
    }

    /**
     * One y series.
     *
     * @param label legend label
     * @param y     values, as long as the chart's x; NaN = gap
     * @param style  how this series is drawn within its chart; null means {@link Style#DEFAULT}
     * @param errors error bars (issue 32: a percentile's 95% interval), one {@code {low, high}} per y value or null
     *               where a value has none; null for a series without error bars
     */
    public record Series(String label, double[] y, Style style, double[][] errors) {
        public Series {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(y, "y");
            style = style == null ? Style.DEFAULT : style;
            if (errors != null && errors.length != y.length) {
                throw new IllegalArgumentException("series " + label + " has " + errors.length + " error bars for "
                        + y.length + " values");
            }
        }

        /**
         * A series without error bars.
         *
         * @param label legend label; not null
         * @param y     values, as long as the chart's x; NaN = gap; not null
         * @param style how this series is drawn; null means {@link Style#DEFAULT}
         */
        public Series(String label, double[] y, Style style) {
            this(label, y, style, null);
        }

        /**
         * A series drawn the chart's way ({@link Style#DEFAULT}).
         *
         * @param label legend label; not null
         * @param y     values, as long as the chart's x; NaN = gap; not null
         */
        public Series(String label, double[] y) {
            this(label, y, Style.DEFAULT);
        }

        /** How one series is drawn, overriding its chart's {@link Kind}. */
        public enum Style {
            /** As the chart's kind says. */
            DEFAULT,
            /** A dashed line (a threshold, a reference value). */
            DASHED,
            /** Large unconnected markers (a highlighted point on a line chart). */
            MARKERS,
            /**
             * Failures: large red crosses, drawn above every other series, in a colour no other series of
             * the chart uses (e.g. failed requests on the per-request timeline).
             */
            FAILURE
        }
    }

    public Chart {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(x, "x");
        series = List.copyOf(series);
        for (Series s : series) {
            if (s.y().length != x.length) {
                throw new IllegalArgumentException("series " + s.label() + " has " + s.y().length
                        + " values for " + x.length + " x values");
            }
        }
    }
}

package io.capstream.aggregator.html;

import java.util.List;

/**
 * How a {@link Chart} is presented beyond its data: the x scale and a caption under it.
 *
 * @param xLog        a base-10 logarithmic x scale (every x must then be &gt; 0)
 * @param xCategories labels of a categorical x axis: x value {@code i} is shown as label {@code i}
 *                    (the chart's x are then 0, 1, 2, ...); null for a numeric x axis
 * @param caption     a sentence shown under the chart (escaped), e.g. how the data was sampled; null for none
 */
public record ChartOptions(boolean xLog, List<String> xCategories, String caption) {
    /** A numeric linear x axis and no caption. */
    public static final ChartOptions NONE = new ChartOptions(false, null, null);

    /** Copies the category list. */
    public ChartOptions {
        xCategories = xCategories == null ? null : List.copyOf(xCategories);
    }

    /**
     * @param text the caption (escaped when rendered); null for none
     * @return these options with that caption
     */
    public ChartOptions withCaption(String text) {
        return new ChartOptions(xLog, xCategories, text);
    }

    /** @return these options with a logarithmic x scale */
    public ChartOptions withLogX() {
        return new ChartOptions(true, xCategories, caption);
    }

    /**
     * @param labels one label per x value 0..n-1; not null
     * @return these options with a categorical x axis
     */
    public ChartOptions withCategories(List<String> labels) {
        return new ChartOptions(xLog, labels, caption);
    }
}

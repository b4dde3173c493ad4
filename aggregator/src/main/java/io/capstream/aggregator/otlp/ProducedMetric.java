package io.capstream.aggregator.otlp;

import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.HistogramData;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.SumData;
import io.opentelemetry.sdk.resources.Resource;
import java.util.Collection;

/**
 * One metric the {@link WindowMetricProducer} hands to the SDK: the SDK's public {@link MetricData} interface over
 * immutable values (the SDK's own implementation is internal API). Histograms and sums are cumulative.
 *
 * @param resource    the SDK's resource (service name, ...)
 * @param scope       the instrumentation scope
 * @param name        metric name
 * @param description one line
 * @param unit        UCUM unit, e.g. {@code s} or {@code {token}}
 * @param type        {@link MetricDataType#HISTOGRAM} or {@link MetricDataType#LONG_SUM}
 * @param data        the points
 */
record ProducedMetric(Resource resource, InstrumentationScopeInfo scope, String name, String description, String unit,
                      MetricDataType type, Data<?> data) implements MetricData {
    /** The scope every produced metric carries. */
    static final InstrumentationScopeInfo SCOPE = InstrumentationScopeInfo.create("io.capstream.aggregator");

    static ProducedMetric histogram(Resource resource, String name, String description, String unit,
                                    Collection<HistogramPointData> points) {
        return new ProducedMetric(resource, SCOPE, name, description, unit, MetricDataType.HISTOGRAM,
                HistogramData.create(AggregationTemporality.CUMULATIVE, points));
    }

    static ProducedMetric counter(Resource resource, String name, String description, String unit,
                                  Collection<LongPointData> points) {
        return new ProducedMetric(resource, SCOPE, name, description, unit, MetricDataType.LONG_SUM,
                SumData.createLongSumData(true, AggregationTemporality.CUMULATIVE, points));
    }

    @Override
    public Resource getResource() {
        return resource;
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
        return scope;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getDescription() {
        return description;
    }

    @Override
    public String getUnit() {
        return unit;
    }

    @Override
    public MetricDataType getType() {
        return type;
    }

    @Override
    public Data<?> getData() {
        return data;
    }
}

package io.capstream.loadgen.servermetrics;

import java.util.Map;

/**
 * One sample of a Prometheus scrape.
 *
 * @param name   the sample's name as exposed (a histogram's or summary's {@code _sum} / {@code _count})
 * @param labels its labels (empty when none); never null
 * @param value  its value
 * @param kind   {@code gauge} or {@code counter} (untyped samples count as gauges; histogram and summary sums
 *               and counts as counters)
 */
public record PrometheusSample(String name, Map<String, String> labels, double value, String kind) {
}

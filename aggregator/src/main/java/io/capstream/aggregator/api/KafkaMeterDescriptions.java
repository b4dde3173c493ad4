package io.capstream.aggregator.api;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * Gives the Kafka client meters that Kafka registers without a description (the per-broker
 * {@code node-request-latency-avg/max}) a HELP text, since a Prometheus family without one fails
 * {@code promtool check metrics}. Names, tags and values are left as the Kafka binder made them.
 */
final class KafkaMeterDescriptions implements MeterFilter {
    @Override
    public Meter.Id map(Meter.Id id) {
        String description = id.getDescription();
        if (!id.getName().startsWith("kafka.") || (description != null && !description.isBlank())) {
            return id;
        }
        return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), describe(id.getName()),
                id.getType());
    }

    /** @return a HELP text for a Kafka meter Kafka did not describe */
    static String describe(String name) {
        if (name.endsWith(".node.request.latency.avg")) {
            return "The average request latency to the broker node (tag node_id), in ms";
        }
        if (name.endsWith(".node.request.latency.max")) {
            return "The maximum request latency to the broker node (tag node_id), in ms";
        }
        return "Kafka client metric " + name.substring("kafka.".length()) + " (Kafka gives no description)";
    }
}

package io.capstream.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.cli.options.KafkaClientProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Where a command on a shared Kafka gets its report from, and the line that says so. */
class AggregatorChoiceTest {
    private static final String HTTP_REGISTRY = "http://registry:8081";

    @Test
    void anActiveGroupIsUsed() {
        AggregatorChoice c = AggregatorChoice.of("capstream-aggregator", HTTP_REGISTRY, 2);
        assertTrue(c.useRunning());
        assertEquals("capstream-aggregator", c.group());
        assertEquals("using the running aggregator (group capstream-aggregator)", c.line());
    }

    @Test
    void anEmptyOrMissingGroupMeansAggregatingHere() {
        AggregatorChoice c = AggregatorChoice.of("capstream-aggregator", HTTP_REGISTRY, 0);
        assertFalse(c.useRunning());
        assertEquals("no aggregator running on this Kafka: aggregating in this process", c.line());
    }

    @Test
    void eventsOfTheInProcessRegistryAreAggregatedHereEvenWithAServiceRunning() {
        // another process cannot decode them: handing over would publish no report at all
        AggregatorChoice c = AggregatorChoice.of("team-agg", "mock://capstream", 1);
        assertFalse(c.useRunning());
        assertEquals("the running aggregator (group team-agg) cannot decode events of the in-process registry"
                + " mock://capstream: aggregating in this process (give --schema-registry-url to use the aggregator)",
                c.line());
    }

    @Test
    @Timeout(30)
    void aKafkaThatDoesNotAnswerMeansAggregatingHere() {
        AggregatorChoice c = AggregatorChoice.probe(new KafkaClientProperties("127.0.0.1:1", Map.of()),
                "capstream-aggregator", HTTP_REGISTRY, Duration.ofSeconds(1));
        assertFalse(c.useRunning());
        assertThat(c.line()).startsWith("cannot tell whether an aggregator (group capstream-aggregator) runs on this"
                + " Kafka (");
        assertThat(c.line()).endsWith("): aggregating in this process");
    }
}

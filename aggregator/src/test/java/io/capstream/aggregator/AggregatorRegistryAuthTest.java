package io.capstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.AuthRegistryStub;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The whole aggregator topology against an HTTP registry that requires basic auth: the events
 * decoder and the report, summary and alert serdes all send the configured credentials.
 */
class AggregatorRegistryAuthTest {
    private static final String USER_INFO = "agg:pw";
    private static final RegistryClientConfig AUTH =
            new RegistryClientConfig(Duration.ofSeconds(5), 0, Duration.ofMillis(10), USER_INFO, null);

    @Test
    void everySerdeAndTheDecoderSendTheCredentials() throws Exception {
        try (AuthRegistryStub stub = new AuthRegistryStub(USER_INFO)) {
            AggregatorConfig config = AggregatorConfig.of(stub.url(), AUTH, Duration.ofSeconds(10), Duration.ofSeconds(1),
                    SloParser.parseAll(List.of("ttft_p95_ms<=1")));
            config = config.withSlo(config.slo().withDecision(SloDecision.point(1))); // few requests per window
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "aggregator-registry-auth-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            try (TopologyTestDriver driver = new TopologyTestDriver(AggregatorTopology.build(config, s -> { }), props)) {
                TestInputTopic<String, RunEvent> in = driver.createInputTopic(Topics.EVENTS,
                        Serdes.String().serializer(), SpecificAvroSerde.forValue(RunEvent.class, stub.url(), AUTH).serializer());
                AggregatorTopologyTest.pipeThreeRequestRun(in, "benchmark-auth");

                assertTrue(driver.createOutputTopic(Topics.EVENTS_DLQ, Serdes.String().deserializer(),
                        Serdes.ByteArray().deserializer()).isEmpty(), "every event decoded (no dead letters)");
                var reports = driver.createOutputTopic(Topics.REPORTS, Serdes.String().deserializer(),
                        SpecificAvroSerde.forValue(BenchmarkReport.class, stub.url(), AUTH).deserializer())
                        .readValuesToList();
                assertEquals(1, reports.size());
                assertEquals(3, reports.get(0).getCompleted());
                var summaries = driver.createOutputTopic(Topics.SUMMARIES, Serdes.String().deserializer(),
                        SpecificAvroSerde.forValue(WindowSummary.class, stub.url(), AUTH).deserializer())
                        .readValuesToList();
                assertEquals(1, summaries.size());
                var alerts = driver.createOutputTopic(Topics.ALERTS, Serdes.String().deserializer(),
                        SpecificAvroSerde.forValue(SloBreach.class, stub.url(), AUTH).deserializer()).readValuesToList();
                assertEquals(1, alerts.size(), "ttft p95 of ~100 ms breaches <= 1 ms");
            }
            assertThat(stub.rejected()).as("requests without credentials: " + stub.rejected()).isEmpty();
            Set<String> paths = stub.requests().stream().map(AuthRegistryStub.Seen::path).collect(Collectors.toSet());
            assertThat(paths).contains("/subjects/" + Topics.REPORTS + "-value/versions");
            assertThat(paths).contains("/subjects/" + Topics.SUMMARIES + "-value/versions");
            assertThat(paths).contains("/subjects/" + Topics.ALERTS + "-value/versions");
            assertThat(paths).as("the events decoder fetched the writer schema: " + paths).contains("/schemas/ids/1");
        }
    }
}

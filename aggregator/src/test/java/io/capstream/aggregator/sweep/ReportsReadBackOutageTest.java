package io.capstream.aggregator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.events.RegistryOutageException;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.OutageRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregator reads {@code capstream.reports} back into its reports table (and the sweep path);
 * during a schema registry outage a valid report is held and, after the hold, the stream thread
 * fails so that the report is read again: it is never dead-lettered (issue 27.3: an aggregator
 * started while the registry was unreachable dead-lettered all 11 reports it read back).
 */
class ReportsReadBackOutageTest {
    private static final String SCOPE = "reports-read-back-outage-test";
    private static final RegistryClientConfig CLIENT =
            new RegistryClientConfig(Duration.ofSeconds(1), 3, Duration.ofMillis(10), null, null);
    private static final RegistryRetry SHORT_HOLD =
            new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(50), Duration.ofMillis(2_500));

    @TempDir
    Path stateDir;

    private final RegistryHealth health = new RegistryHealth();

    @AfterEach
    void drop() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void aReportReadBackDuringAnOutageIsHeldAndReadAgainNeverDeadLettered() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        BenchmarkReport report = SweepReports.step("sweep-20261204T230000Z", 1, 2, true);
        byte[] bytes = SpecificAvroSerde.forValue(BenchmarkReport.class, "mock://" + SCOPE).serializer()
                .serialize(Topics.REPORTS, report);
        try (OutageRegistry registry = new OutageRegistry(SCOPE)) {
            AggregatorConfig base = AggregatorConfig.of(registry.url(), CLIENT, Duration.ofSeconds(10), Duration.ofSeconds(1),
                    List.of());
            AggregatorConfig config = new AggregatorConfig(base.report().withRegistryRetry(SHORT_HOLD).withRegistryHealth(health),
                    base.window(), base.slo());
            List<String> seen = new ArrayList<>();
            registry.down(true);
            registry.observe(health::problem);
            try (TopologyTestDriver driver = new TopologyTestDriver(AggregatorTopology.build(config, null),
                    StreamsSettings.defaults("reports-read-back-outage-test", "unused:9092", stateDir).toProperties())) {
                TestInputTopic<String, byte[]> reports = driver.createInputTopic(Topics.REPORTS, new StringSerializer(),
                        new ByteArraySerializer());
                TestOutputTopic<String, byte[]> dlq = driver.createOutputTopic(Topics.EVENTS_DLQ, new StringDeserializer(),
                        new ByteArrayDeserializer());

                RuntimeException thrown = assertThrows(RuntimeException.class, () -> reports.pipeInput(report.getRunId(), bytes),
                        "the stream thread fails (to be replaced) instead of skipping the record");

                assertTrue(RegistryOutageException.isIn(thrown), "failed by the registry outage: " + thrown);
                assertTrue(dlq.isEmpty(), "a valid report is not dead-lettered during an outage: " + dlq.getQueueSize());
                assertTrue(registry.refused() > 1, "retried before giving up: " + registry.refused() + " refused requests");
                seen.addAll(registry.observed());
                assertTrue(seen.stream().skip(1).allMatch(p -> p != null && p.startsWith(RegistryHealth.UNREACHABLE)),
                        "unreachable while the report was held: " + seen);

                // Kafka Streams replaces the thread, which reads the report again from the last commit
                registry.down(false);
                reports.pipeInput(report.getRunId(), bytes);

                assertTrue(dlq.isEmpty(), "still nothing dead-lettered: " + dlq.getQueueSize());
                KeyValueStore<String, BenchmarkReport> store = driver.getKeyValueStore(AggregatorTopology.REPORTS_STORE);
                assertEquals(report, store.get(report.getRunId()), "the report reached the reports table");
                assertEquals(1, driver.getKeyValueStore(SweepTopology.STORE).approximateNumEntries(),
                        "and the sweep path");
                assertNull(health.problem(), "reachable again: " + health.problem());
            }
        }
    }
}

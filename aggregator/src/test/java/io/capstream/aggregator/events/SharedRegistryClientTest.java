package io.capstream.aggregator.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.window.WindowTestEvents;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.OutageRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: the events decoders of the tasks of one topology share one registry client, so a writer schema is fetched
 * once per process, not once per task (each fetch an HTTP round trip the stream thread waits for). Two test drivers
 * over the same {@link Topology} stand for two tasks: their processors come from the same supplier, as the tasks of
 * one Kafka Streams instance do.
 */
class SharedRegistryClientTest {
    private static final String SCOPE = "shared-registry-client-test";
    private static final RegistryClientConfig CLIENT =
            new RegistryClientConfig(Duration.ofSeconds(5), 3, Duration.ofMillis(10), null, null);

    private OutageRegistry registry;
    private final List<TopologyTestDriver> drivers = new ArrayList<>();

    @BeforeEach
    void startRegistry() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        registry = new OutageRegistry(SCOPE);
    }

    @AfterEach
    void stop() {
        drivers.forEach(TopologyTestDriver::close);
        registry.close();
        MockSchemaRegistry.dropScope(SCOPE);
    }

    /** Failed before: each task's decoder had its own client, and the schema was fetched once per task. */
    @Test
    void theTasksOfOneTopologyFetchAWriterSchemaOnce() {
        StreamsBuilder builder = new StreamsBuilder();
        EventsSource.stream(builder, new EventsSourceConfig(Topics.EVENTS, Topics.EVENTS_DLQ, registry.url(), CLIENT))
                .mapValues(RunEvent::getEventId).to("decoded", Produced.with(Serdes.String(), Serdes.String()));
        Topology topology = builder.build();
        List<String> decoded = new ArrayList<>();
        for (int task = 0; task < 2; task++) {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "shared-registry-client-test-" + task);
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            TopologyTestDriver driver = new TopologyTestDriver(topology, props);
            drivers.add(driver);
            RunEvent event = WindowTestEvents.completed("benchmark-shared-" + task, task, 1_767_225_600_000L + task,
                    100, 500, 21);
            driver.createInputTopic(Topics.EVENTS, new StringSerializer(), new ByteArraySerializer())
                    .pipeInput(event.getRunId(), SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE)
                            .serializer().serialize(Topics.EVENTS, event));
            decoded.addAll(driver.createOutputTopic("decoded", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList());
        }
        assertThat(decoded).as("both tasks decoded their event: %s", decoded).hasSize(2);
        assertThat(registry.paths()).as("registry requests of the two tasks: %s", registry.paths())
                .containsExactly("/schemas/ids/1");
    }
}

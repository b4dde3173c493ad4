package io.capstream.aggregator.slo;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;

/** {@link SloTopology} alone in a TopologyTestDriver: window summaries in, alerts out. */
final class SloTopologyHarness implements AutoCloseable {
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, WindowSummary> in;
    private final TestOutputTopic<String, SloBreach> out;

    SloTopologyHarness(List<String> slos, UnaryOperator<SloTopologyConfig> customize) {
        String registry = "mock://slo-harness-" + UUID.randomUUID();
        SloTopologyConfig config = customize.apply(new SloTopologyConfig(SloParser.parseAll(slos), Topics.ALERTS,
                registry, Duration.ofDays(30), Clock.fixed(Instant.ofEpochMilli(0), ZoneOffset.UTC)));
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<WindowSummary> serde = SpecificAvroSerde.forValue(WindowSummary.class, registry);
        KStream<String, WindowSummary> summaries = builder.stream(Topics.SUMMARIES, Consumed.with(Serdes.String(), serde));
        SloTopology.addTo(summaries, builder, config);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "slo-harness");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(builder.build(), props);
        in = driver.createInputTopic(Topics.SUMMARIES, Serdes.String().serializer(), serde.serializer());
        out = driver.createOutputTopic(Topics.ALERTS, Serdes.String().deserializer(),
                SpecificAvroSerde.forValue(SloBreach.class, registry).deserializer());
    }

    /** Pipes one closed window. */
    void send(WindowSummary s) {
        in.pipeInput(s.getTarget() + "|" + s.getModel() + "|" + s.getContextBucket() + "|" + s.getWindowStartMs(), s,
                s.getWindowEndMs());
    }

    /** @return the alerts published since the last call */
    List<SloBreach> alerts() {
        return out.readValuesToList();
    }

    @Override
    public void close() {
        driver.close();
    }
}

package io.capstream.aggregator.change;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;

/** {@link ChangeTopology}: window summaries in, change points on capstream.changes out. */
class ChangeTopologyTest {
    private static final String REGISTRY = "mock://change-topology-test";
    private static final long MINUTE = 60_000;

    private static WindowSummary window(int i, long n, double ttftP95, double e2eP95) {
        return WindowSummary.newBuilder().setTarget("http://e").setModel("m").setContextBucket("all")
                .setWindowStartMs(i * MINUTE).setWindowEndMs((i + 1) * MINUTE).setRequests(n).setCompleted(n)
                .setFailed(0).setErrorRate(0).setPromptTokens(0).setOutputTokens(0).setOutputThroughputTokS(0)
                .setRelativeAccuracy(0.01)
                .setTtftMs(Quantiles.newBuilder().setCount(n).setP50(ttftP95 / 2).setP95(ttftP95).setP99(ttftP95).build())
                .setE2eMs(Quantiles.newBuilder().setCount(n).setP50(e2eP95 / 2).setP95(e2eP95).setP99(e2eP95).build())
                .build();
    }

    @Test
    void aShiftInP95TtftIsPublishedOnceWithItsLevels() {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<WindowSummary> serde = SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY);
        List<ChangePoint> heard = new java.util.ArrayList<>();
        ChangeTopology.addTo(builder.stream(Topics.SUMMARIES, Consumed.with(Serdes.String(), serde)), builder, REGISTRY,
                null, Clock.fixed(Instant.ofEpochMilli(7), ZoneOffset.UTC), heard::add);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "change-topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            var in = driver.createInputTopic(Topics.SUMMARIES, Serdes.String().serializer(), serde.serializer());
            var out = driver.createOutputTopic(Topics.CHANGES, Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(ChangePoint.class, REGISTRY).deserializer());
            Random r = new Random(3);
            for (int i = 0; i < 60; i++) {
                double noise = Math.exp(0.05 * r.nextGaussian());
                double ttft = (i < 40 ? 500 : 650) * noise; // +30% from window 40
                in.pipeInput("k" + i, window(i, 200, ttft, 2000 * Math.exp(0.05 * r.nextGaussian())));
            }
            in.pipeInput("few", window(60, 10, 5000, 2000)); // 10 values: not watched
            List<KeyValue<String, ChangePoint>> changes = out.readKeyValuesToList();
            assertThat(changes).as("one change: " + changes).hasSize(1);
            ChangePoint c = changes.get(0).value;
            assertThat(changes.get(0).key).isEqualTo("http://e|m|all|ttft_p95_ms");
            assertThat(c.getMetric()).isEqualTo("ttft_p95_ms");
            assertThat(c.getDirection()).isEqualTo("up");
            assertThat(c.getBefore()).as("level before").isBetween(480.0, 520.0);
            assertThat(c.getAfter()).as("level after: " + c).isBetween(600.0, 700.0);
            assertThat(c.getRelativeChange()).isBetween(0.2, 0.4);
            assertThat(c.getChangeWindowStartMs() / MINUTE).as("the change is placed near window 40").isBetween(37L, 40L);
            assertThat((c.getDetectedWindowEndMs() - 40 * MINUTE) / MINUTE).as("windows to detection").isBetween(1L, 3L);
            assertThat(c.getConfidence()).isGreaterThan(0.9);
            assertThat(c.getDetectedAtMs()).isEqualTo(7L);
            assertThat(Arrays.asList(c.getReferenceWindows(), c.getAfterWindows())).as("reference and after windows")
                    .allSatisfy(n -> assertThat(n).isPositive());
            // issue 32: kept for /api/changes at its change start, and told to the listener (the Prometheus counter)
            org.apache.kafka.streams.state.WindowStore<String, ChangePoint> history =
                    driver.getWindowStore(ChangeTopology.HISTORY_STORE);
            List<ChangePoint> kept = new java.util.ArrayList<>();
            try (var it = history.fetchAll(Instant.EPOCH, Instant.ofEpochMilli(100 * MINUTE))) {
                it.forEachRemaining(kv -> {
                    assertThat(kv.key.window().start()).as("stored at the change's start")
                            .isEqualTo(kv.value.getChangeWindowStartMs());
                    kept.add(kv.value);
                });
            }
            assertThat(kept).as("the history store").containsExactly(c);
            assertThat(heard).as("the listener").containsExactly(c);
        }
    }
}

package io.capstream.aggregator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep path on {@link TopologyTestDriver}: step reports in, capacity curves out on capstream.sweeps. */
class SweepTopologyTest {
    private static final String SWEEP = "sweep-20261201T120000Z";

    @TempDir
    Path stateDir;

    private final String registry = "mock://sweep-topology-" + UUID.randomUUID();

    private TopologyTestDriver driver(Topology topology) {
        return new TopologyTestDriver(topology, StreamsSettings.defaults("sweep-test", "127.0.0.1:9", stateDir)
                .toProperties());
    }

    private Topology sweepOnly() {
        StreamsBuilder builder = new StreamsBuilder();
        SweepTopology.addTo(builder, SweepTopologyConfig.defaults(registry));
        return builder.build();
    }

    private TestInputTopic<String, BenchmarkReport> reports(TopologyTestDriver d) {
        return d.createInputTopic(Topics.REPORTS, new StringSerializer(),
                SpecificAvroSerde.forValue(BenchmarkReport.class, registry).serializer());
    }

    private TestOutputTopic<String, SweepCurve> sweeps(TopologyTestDriver d) {
        return d.createOutputTopic(Topics.SWEEPS, new StringDeserializer(),
                SpecificAvroSerde.forValue(SweepCurve.class, registry).deserializer());
    }

    private static void send(TestInputTopic<String, BenchmarkReport> in, BenchmarkReport r) {
        in.pipeInput(r.getRunId(), r);
    }

    /** A grid 1, 2, 4, 8 of which 1, 2, 4 meet the SLO. */
    private static List<BenchmarkReport> grid() {
        return List.of(SweepReports.step(SWEEP, 1, 1, true), SweepReports.step(SWEEP, 2, 2, true),
                SweepReports.step(SWEEP, 3, 4, true), SweepReports.step(SWEEP, 4, 8, false));
    }

    @Test
    void eachStepReportUpdatesTheSweepsCurve() {
        try (TopologyTestDriver d = driver(sweepOnly())) {
            var in = reports(d);
            grid().forEach(r -> send(in, r));
            List<KeyValue<String, SweepCurve>> out = sweeps(d).readKeyValuesToList();
            assertEquals(4, out.size(), "one update per step report");
            out.forEach(kv -> assertEquals(SWEEP, kv.key));
            assertEquals(List.of(1, 2, 3, 4), out.stream().map(kv -> kv.value.getPoints().size()).toList());
            SweepCurve last = out.get(3).value;
            assertEquals(List.of(1.0, 2.0, 4.0, 8.0), last.getPoints().stream().map(SweepPoint::getLoad).toList());
            assertEquals(4.0, last.getMaxLoadMeetingSlos());
            assertEquals(SWEEP + "-s3", last.getMaxLoadRunId());
            assertEquals(1_767_225_604_000L, last.getUpdatedAtMs());
            KeyValueStore<String, SweepCurve> store = d.getKeyValueStore(SweepTopology.STORE);
            assertEquals(last, store.get(SWEEP));
        }
    }

    @Test
    void singleRunsAndTombstonesAreIgnored() {
        try (TopologyTestDriver d = driver(sweepOnly())) {
            var in = reports(d);
            BenchmarkReport single = SweepReports.bare(SWEEP, 1, "concurrency", 1, false).setRunId("benchmark-single")
                    .setSweep(null).build();
            send(in, single);
            in.pipeInput("benchmark-single", null);
            var out = sweeps(d);
            assertTrue(out.isEmpty());
            send(in, SweepReports.step(SWEEP, 1, 1, true));
            in.pipeInput(SWEEP + "-s1", null);
            List<SweepCurve> curves = out.readValuesToList();
            assertEquals(1, curves.size(), "the tombstone of a step changes nothing");
            assertEquals(1, curves.get(0).getPoints().size());
        }
    }

    @Test
    void twoSweepsHaveTheirOwnCurves() {
        try (TopologyTestDriver d = driver(sweepOnly())) {
            var in = reports(d);
            send(in, SweepReports.step(SWEEP, 1, 1, true));
            send(in, SweepReports.step("sweep-b", 1, "rate", 2.5, true, false));
            send(in, SweepReports.step(SWEEP, 2, 2, true));
            KeyValueStore<String, SweepCurve> store = d.getKeyValueStore(SweepTopology.STORE);
            assertEquals(2, store.get(SWEEP).getPoints().size());
            assertEquals(1, store.get("sweep-b").getPoints().size());
            assertEquals(2.5, store.get("sweep-b").getMaxLoadMeetingSlos());
            assertEquals("rate", store.get("sweep-b").getAxis());
        }
    }

    @Test
    void replayingTheSameReportsGivesTheSameCurve() {
        try (TopologyTestDriver d = driver(sweepOnly())) {
            var in = reports(d);
            var out = sweeps(d);
            grid().forEach(r -> send(in, r));
            List<SweepCurve> first = out.readValuesToList();
            grid().forEach(r -> send(in, r));
            List<SweepCurve> replay = out.readValuesToList();
            assertEquals(4, replay.size());
            replay.forEach(c -> assertEquals(first.get(3), c, "every replayed step leaves the full curve as it was"));
        }
        try (TopologyTestDriver fresh = new TopologyTestDriver(sweepOnly(),
                StreamsSettings.defaults("sweep-test-2", "127.0.0.1:9", stateDir.resolve("fresh")).toProperties())) {
            var in = reports(fresh);
            List<BenchmarkReport> reversed = new java.util.ArrayList<>(grid());
            java.util.Collections.reverse(reversed);
            reversed.forEach(r -> send(in, r));
            List<SweepCurve> curves = sweeps(fresh).readValuesToList();
            SweepCurve expected = grid().stream().reduce(null, SweepCurves::fold, (a, b) -> b);
            assertEquals(expected, curves.get(curves.size() - 1), "a fresh application, the steps in another order");
        }
    }

    @Test
    void theAggregatorTopologyFeedsTheSweepsFromTheReportsTable() {
        AggregatorConfig config = AggregatorConfig.of(registry, Duration.ofSeconds(10), Duration.ofSeconds(1), List.of());
        try (TopologyTestDriver d = driver(AggregatorTopology.build(config, null))) {
            var in = reports(d);
            grid().forEach(r -> send(in, r));
            in.pipeInput(SWEEP + "-s1", null);
            List<SweepCurve> curves = sweeps(d).readValuesToList();
            assertEquals(4, curves.size());
            assertEquals(4.0, curves.get(3).getMaxLoadMeetingSlos());
        }
    }

    @Test
    void theInProcessTopologyReadsTheReportsTopicBack() {
        Topology t = SweepTopology.buildWithReports(ReportTopologyConfig.defaults(registry));
        try (TopologyTestDriver d = driver(t)) {
            var in = reports(d);
            send(in, SweepReports.step(SWEEP, 1, 1, null));
            List<SweepCurve> curves = sweeps(d).readValuesToList();
            assertEquals(1, curves.size());
            assertNull(curves.get(0).getMaxLoadMeetingSlos());
        }
    }
}

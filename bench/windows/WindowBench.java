/*
 * CPU cost of the windowed-summaries processor (re-key, DDSketch aggregation, emit on close),
 * single thread, on TopologyTestDriver (no broker: measures the processors and RocksDB, not Kafka I/O).
 * Run by hand:  bench/windows/run.sh [events] [keys]
 * Prints events/s per round (wall clock, and per CPU second of the one thread: steadier on a shared machine), the encoded size of one window aggregate, and the summaries emitted.
 */
import io.capstream.aggregator.window.WindowAggregate;
import io.capstream.aggregator.window.RequestSample;
import io.capstream.aggregator.window.WindowTopology;
import io.capstream.aggregator.window.WindowTopologyConfig;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;

public class WindowBench {
    public static void main(String[] args) throws Exception {
        int events = Integer.parseInt(args.length > 0 ? args[0] : "200000");
        int keys = Integer.parseInt(args.length > 1 ? args[1] : "20");
        String registry = "mock://window-bench";
        Random random = new Random(1);
        WindowAggregate one = new WindowAggregate(0.01);
        for (int i = 0; i < 1000; i++) {
            double ttft = 50 + random.nextDouble() * 1000;
            one.addCompleted(new RequestSample(ttft, ttft, ttft + 800, 15.0 + random.nextDouble(), 60.0,
                    5000.0 + random.nextDouble() * 1000, 3000L, 64), true);
        }
        System.out.printf("one window aggregate of 1000 requests: %d bytes encoded%n", one.toBytes().length);
        for (int round = 0; round < 3; round++) {
            StreamsBuilder b = new StreamsBuilder();
            var serde = SpecificAvroSerde.forValue(RunEvent.class, registry);
            WindowTopology.addTo(b.stream("capstream.events", Consumed.with(Serdes.String(), serde)), b,
                    WindowTopologyConfig.defaults(registry).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(1)));
            Properties p = new Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-bench");
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("window-bench").toString());
            try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
                var in = d.createInputTopic("capstream.events", Serdes.String().serializer(), serde.serializer());
                var out = d.createOutputTopic("capstream.summaries", Serdes.String().deserializer(),
                        SpecificAvroSerde.forValue(WindowSummary.class, registry).deserializer());
                RunEvent[] prepared = new RunEvent[events];
                long t0 = 1_767_225_600_000L;
                for (int i = 0; i < events; i++) {
                    long t = t0 + i * 2L; // 500 events/s of event time: a 10 s window holds 5000 events
                    double ttft = 50 + random.nextDouble() * 1000;
                    RequestCompleted c = RequestCompleted.newBuilder().setRequestIndex(i)
                            .setPlannedContextTokens(1000 * (1 + i % 8)).setTarget("http://t" + (i % keys) + "/v1")
                            .setModel("m").setTtftNs((long) (ttft * 1e6)).setTtfoNs((long) (ttft * 1e6))
                            .setE2eNs((long) ((ttft + 800) * 1e6)).setPromptTokens(3000L).setCompletionTokens(64L)
                            .setOutputTokenSource("usage").setContentChunks(64).setCompletedAtEpochMs(t).build();
                    prepared[i] = RunEvent.newBuilder().setRunId("r" + (i % 7)).setEventId("e" + i).setWorkerId("w")
                            .setEmittedAtMs(t).setPayload(c).build();
                }
                var threads = java.lang.management.ManagementFactory.getThreadMXBean();
                long cpu0 = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                for (RunEvent e : prepared) {
                    in.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
                }
                in.pipeInput("hb", RunEvent.newBuilder().setRunId("hb").setEventId("hb").setWorkerId("w")
                        .setEmittedAtMs(t0 + events * 2L + 60_000).setPayload(new Heartbeat(null, null, java.util.Map.of(), null)).build());
                double s = (System.nanoTime() - start) / 1e9;
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
                System.out.printf("round %d: %d events in %.2f s = %.0f events/s; %.2f CPU s = %.0f events per CPU "
                        + "second, %d summaries%n", round, events, s, events / s, cpu, events / cpu,
                        out.readValuesToList().size());
            }
        }
    }
}

/*
 * Every window summary the window topology (EventsSource + WindowTopology, as `aggregate` and BrokerBench windows
 * build it) emits for one fixed set of events, in emission order, on TopologyTestDriver with a fixed wall clock: two
 * versions' files are equal line for line when their summaries are equal field by field (issue 31: the window path
 * made cheaper, its outputs unchanged). Run by hand:
 *   bench/windows/summaries-dump.sh OUT [runs=12] [requests=3000] [targets=4]
 * The events: runs x requests over 4 targets and 3 context buckets, one run after another over the same 30 minutes
 * (so later runs' requests are late for windows an earlier run closed: merged and emitted again), every 23rd request
 * failed (3 error types), every 97th cancelled, every 11th without usage tokens; a heartbeat and the wall clock
 * moved on at the end of each run (the punctuations: progress, idle, late re-emits).
 */
import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.events.EventsSourceConfig;
import io.capstream.aggregator.window.WindowTopology;
import io.capstream.aggregator.window.WindowTopologyConfig;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

public class SummariesDump {
    public static void main(String[] a) throws Exception {
        Path out = Path.of(a[0]);
        int runs = a.length > 1 ? Integer.parseInt(a[1]) : 12;
        int requests = a.length > 2 ? Integer.parseInt(a[2]) : 3000;
        int targets = a.length > 3 ? Integer.parseInt(a[3]) : 4;
        String registry = "mock://summaries-dump";
        StreamsBuilder b = new StreamsBuilder();
        WindowTopology.addTo(EventsSource.stream(b, EventsSourceConfig.defaults(registry)), b,
                WindowTopologyConfig.defaults(registry).withInput(1, Duration.ofSeconds(5)));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "summaries-dump");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("summaries-dump").toString());
        long from = 1_767_225_600_000L; // 2026-01-01T00:00Z
        long to = from + 1_800_000L;
        Instant wall = Instant.ofEpochMilli(to + 3_600_000L); // an hour after the last request: a backlog
        var serde = SpecificAvroSerde.forValue(RunEvent.class, registry);
        long emitted = 0;
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p, wall);
             PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            var in = d.createInputTopic("capstream.events", Serdes.String().serializer(), Serdes.ByteArray().serializer());
            var summaries = d.createOutputTopic("capstream.summaries", Serdes.String().deserializer(),
                    SpecificAvroSerde.forValue(WindowSummary.class, registry).deserializer());
            for (int r = 0; r < runs; r++) {
                String run = "run-" + r;
                String target = "http://10.0.0." + (1 + r % targets) + ":8000/v1";
                for (int i = 0; i < requests; i++) {
                    long t = from + (long) ((i + 0.5) * (to - from) / requests) + r * 37L;
                    int context = 1024 << ((i * 7 + r) % 3 * 2); // 1k, 4k, 16k: three buckets
                    Object payload;
                    if (i % 23 == 5) {
                        payload = RequestFailed.newBuilder().setRequestIndex(i).setPlannedContextTokens(context)
                                .setTarget(target).setModel("m").setErrorType(new String[] {"timeout", "http_5xx",
                                        "connect"}[i % 3]).setCompletedAtEpochMs(t).setCancelled(false).build();
                    } else if (i % 97 == 7) {
                        payload = RequestFailed.newBuilder().setRequestIndex(i).setPlannedContextTokens(context)
                                .setTarget(target).setModel("m").setErrorType("cancelled").setCompletedAtEpochMs(t)
                                .setCancelled(true).build();
                    } else {
                        long ttft = 20_000_000L + ((i * 7919L + r * 104729L) % 1000) * 100_000L;
                        payload = RequestCompleted.newBuilder().setRequestIndex(i).setPlannedContextTokens(context)
                                .setTarget(target).setModel("m").setTtfoNs(ttft).setTtftNs(ttft)
                                .setE2eNs(ttft + 300_000_000L + (i % 50) * 7_000_000L)
                                .setPromptTokens(i % 11 == 0 ? null : (long) context - 50)
                                .setCompletionTokens(i % 11 == 0 ? null : 64L + i % 17)
                                .setOutputTokenSource(i % 11 == 0 ? "chunks" : "usage").setContentChunks(64 + i % 17)
                                .setCompletedAtEpochMs(t).build();
                    }
                    in.pipeInput(run, serde.serializer().serialize("capstream.events", event(run, "r" + i, t, payload)), t);
                }
                in.pipeInput(run, serde.serializer().serialize("capstream.events",
                        event(run, "h", to + 60_000L, new Heartbeat(target, "m", Map.of(), null))), to + 60_000L);
                for (int s = 0; s < 5; s++) {
                    d.advanceWallClockTime(Duration.ofSeconds(1));
                }
                for (var kv : summaries.readKeyValuesToList()) {
                    w.println(kv.key + "\t" + kv.value);
                    emitted++;
                }
            }
            for (int s = 0; s < 30; s++) {
                d.advanceWallClockTime(Duration.ofSeconds(1));
            }
            for (var kv : summaries.readKeyValuesToList()) {
                w.println(kv.key + "\t" + kv.value);
                emitted++;
            }
        }
        System.out.printf("summaries-dump: %d runs x %d requests: %d summaries emitted, written to %s%n", runs, requests,
                emitted, out);
    }

    static RunEvent event(String run, String id, long at, Object payload) {
        return RunEvent.newBuilder().setRunId(run).setEventId(run + "-" + id).setWorkerId("w0").setEmittedAtMs(at)
                .setPayload(payload).build();
    }
}

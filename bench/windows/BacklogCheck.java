/*
 * The issue-27 check of windows on a backlog, by hand (bench/windows/backlog.sh runs it):
 *   fill  BOOTSTRAP REGISTRY RUNS REQUESTS TARGETS  writes RUNS runs (RunStarted, REQUESTS request events with
 *         completion times spread over the hour that ended 2 minutes ago, a heartbeat now, RunFinished) over
 *         TARGETS targets to capstream.events, run after run;
 *   count BOOTSTRAP REGISTRY RUNS                  waits until capstream.reports has RUNS reports, then until the
 *         window summaries stop changing for 30 s, and prints the requests and late_dropped they hold (latest
 *         record per key).
 */
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class BacklogCheck {
    public static void main(String[] a) throws Exception {
        if (a[0].equals("fill")) {
            fill(a[1], a[2], Integer.parseInt(a[3]), Integer.parseInt(a[4]), Integer.parseInt(a[5]));
        } else {
            count(a[1], a[2], Integer.parseInt(a[3]));
        }
    }

    static void fill(String bootstrap, String registry, int runs, int requests, int targets) throws Exception {
        long now = System.currentTimeMillis();
        long from = now - 3_720_000L; // completion times over the hour that ended 2 min ago
        long to = now - 120_000L;
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "linger.ms", "20", "batch.size", "262144",
                "compression.type", "lz4");
        long sent = 0;
        try (KafkaProducer<String, RunEvent> p = new KafkaProducer<>(props, new StringSerializer(),
                SpecificAvroSerde.forValue(RunEvent.class, registry).serializer())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                String run = "backlog-" + now + "-" + r;
                String target = "http://10.0.0." + (1 + r % targets) + ":8000/v1";
                p.send(new ProducerRecord<>(Topics.EVENTS, run, event(run, "s", from, RunStarted.newBuilder()
                        .setBaseUrl(target).setModel("m").setEngine("synthetic").setRequests(requests).setConcurrency(8)
                        .setMaxTokens(64).setContextTokens(4096)
                        .setPlannedContextTokens(new ArrayList<>(Collections.nCopies(requests, 4096)))
                        .setStartedAt(Instant.ofEpochMilli(from).toString()).setStartedAtEpochMs(from).build())));
                for (int i = 0; i < requests; i++) {
                    long t = from + (long) ((i + 0.5) * (to - from) / requests);
                    long ttft = 20_000_000L + (i * 7919L % 1000) * 100_000L;
                    RequestCompleted c = RequestCompleted.newBuilder().setRequestIndex(i).setPlannedContextTokens(4096)
                            .setTarget(target).setModel("m").setTtfoNs(ttft).setTtftNs(ttft)
                            .setE2eNs(ttft + 500_000_000L).setPromptTokens(4000L).setCompletionTokens(64L)
                            .setOutputTokenSource("usage").setContentChunks(64).setCompletedAtEpochMs(t).build();
                    acks.add(p.send(new ProducerRecord<>(Topics.EVENTS, run, event(run, "r" + i, t, c))));
                    sent++;
                }
                // the generator's heartbeat at the end: the windows up to now close, as on a live feed
                p.send(new ProducerRecord<>(Topics.EVENTS, run, event(run, "h", now,
                        new Heartbeat(target, "m", Map.of(), null))));
                p.send(new ProducerRecord<>(Topics.EVENTS, run, event(run, "f", now, RunFinished.newBuilder()
                        .setWallClockNs(3_600_000_000_000L).setStartedAt(Instant.ofEpochMilli(from).toString())
                        .setFinishedAt(Instant.ofEpochMilli(now).toString()).setStartedAtEpochMs(from)
                        .setFinishedAtEpochMs(now).setRequestsSent(requests).build())));
            }
            p.flush();
            for (Future<?> f : acks) {
                f.get();
            }
        }
        System.out.printf("filled %s with %d runs x %d = %d request events over %d targets, completion times %s .. %s%n",
                Topics.EVENTS, runs, requests, sent, targets, Instant.ofEpochMilli(from), Instant.ofEpochMilli(to));
    }

    static RunEvent event(String run, String id, long at, Object payload) {
        return RunEvent.newBuilder().setRunId(run).setEventId(run + "-" + id).setWorkerId("w0").setEmittedAtMs(at)
                .setPayload(payload).build();
    }

    static void count(String bootstrap, String registry, int runs) throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "group.id", "backlog-check-" + System.nanoTime(),
                "auto.offset.reset", "earliest", "isolation.level", "read_committed");
        long start = System.currentTimeMillis();
        Set<String> reports = new HashSet<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(Topics.REPORTS));
            while (reports.size() < runs) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofSeconds(1))) {
                    if (r.value() != null) {
                        reports.add(r.key());
                    }
                }
            }
        }
        System.out.printf("%d run reports after %d s%n", reports.size(), (System.currentTimeMillis() - start) / 1000);
        Map<String, WindowSummary> latest = new HashMap<>();
        try (KafkaConsumer<String, WindowSummary> c = new KafkaConsumer<>(props, new StringDeserializer(),
                SpecificAvroSerde.forValue(WindowSummary.class, registry).deserializer())) {
            c.subscribe(List.of(Topics.SUMMARIES));
            long lastChange = System.currentTimeMillis();
            while (System.currentTimeMillis() - lastChange < 30_000) {
                for (ConsumerRecord<String, WindowSummary> r : c.poll(Duration.ofSeconds(1))) {
                    latest.put(r.key(), r.value());
                    lastChange = System.currentTimeMillis();
                }
            }
        }
        long requests = latest.values().stream().mapToLong(WindowSummary::getRequests).sum();
        long late = latest.values().stream().mapToLong(WindowSummary::getLateDropped).sum();
        System.out.printf("window summaries: %d windows, %d requests, late_dropped %d (%d s after start)%n",
                latest.size(), requests, late, (System.currentTimeMillis() - start) / 1000);
    }
}

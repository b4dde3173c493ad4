/*
 * The issue-27 check of windows on a backlog, by hand (bench/windows/backlog.sh runs it):
 *   fill  BOOTSTRAP REGISTRY RUNS REQUESTS TARGETS  writes RUNS runs (RunStarted, REQUESTS request events with
 *         completion times spread over the hour that ended 2 minutes ago, a heartbeat now, RunFinished) over
 *         TARGETS targets to capstream.events, run after run;
 *   count BOOTSTRAP REGISTRY RUNS                  waits until capstream.reports has RUNS reports, then until the
 *         window summaries stop changing for 30 s, and prints the requests and late_dropped they hold (latest
 *         record per key), and the windows whose request count differs from the events on capstream.events;
 *   summaries BOOTSTRAP REGISTRY FROM OUT          reads capstream.summaries from the offsets in file FROM (from the
 *         start when FROM does not exist) until it is quiet for 30 s, writes the latest summary per key, one a line,
 *         sorted, to OUT and the end offsets to OUT.offsets (a later call's FROM: only what was written after);
 *   committed BOOTSTRAP GROUP FRACTION              waits until consumer group GROUP has committed at least FRACTION
 *         of capstream.events' records (restore.sh: kill -9 mid-stream).
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
        } else if (a[0].equals("summaries")) {
            summaries(a[1], a[2], java.nio.file.Path.of(a[3]), java.nio.file.Path.of(a[4]));
        } else if (a[0].equals("committed")) {
            committed(a[1], a[2], Double.parseDouble(a[3]));
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

    static void summaries(String bootstrap, String registry, java.nio.file.Path from, java.nio.file.Path out)
            throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "isolation.level", "read_committed");
        Map<String, String> latest = new java.util.TreeMap<>();
        Map<org.apache.kafka.common.TopicPartition, Long> ends = new java.util.TreeMap<>(
                java.util.Comparator.comparing(org.apache.kafka.common.TopicPartition::partition));
        try (KafkaConsumer<String, WindowSummary> c = new KafkaConsumer<>(props, new StringDeserializer(),
                SpecificAvroSerde.forValue(WindowSummary.class, registry).deserializer())) {
            List<org.apache.kafka.common.TopicPartition> parts = c.partitionsFor(Topics.SUMMARIES).stream()
                    .map(i -> new org.apache.kafka.common.TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            if (java.nio.file.Files.exists(from)) {
                for (String line : java.nio.file.Files.readAllLines(from)) {
                    String[] f = line.split(" ");
                    c.seek(new org.apache.kafka.common.TopicPartition(Topics.SUMMARIES, Integer.parseInt(f[0])),
                            Long.parseLong(f[1]));
                }
            }
            long lastChange = System.currentTimeMillis();
            while (System.currentTimeMillis() - lastChange < 30_000) {
                for (ConsumerRecord<String, WindowSummary> r : c.poll(Duration.ofSeconds(1))) {
                    latest.put(r.key(), r.value().toString());
                    lastChange = System.currentTimeMillis();
                }
            }
            for (var tp : parts) {
                ends.put(tp, c.position(tp));
            }
        }
        List<String> lines = new ArrayList<>();
        latest.forEach((k, v) -> lines.add(k + " " + v));
        java.nio.file.Files.write(out, lines);
        List<String> offsets = new ArrayList<>();
        ends.forEach((tp, o) -> offsets.add(tp.partition() + " " + o));
        java.nio.file.Files.write(java.nio.file.Path.of(out + ".offsets"), offsets);
        System.out.printf("%d window summaries (latest per key) in %s%n", latest.size(), out);
    }

    static void committed(String bootstrap, String group, double fraction) throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
            var parts = admin.describeTopics(List.of(Topics.EVENTS)).allTopicNames().get().get(Topics.EVENTS).partitions();
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> ask = new HashMap<>();
            parts.forEach(p -> ask.put(new org.apache.kafka.common.TopicPartition(Topics.EVENTS, p.partition()),
                    org.apache.kafka.clients.admin.OffsetSpec.latest()));
            long total = 0;
            for (var e : admin.listOffsets(ask).all().get().values()) {
                total += e.offset();
            }
            while (true) {
                long done = 0;
                try {
                    for (var e : admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
                        if (e.getKey().topic().equals(Topics.EVENTS) && e.getValue() != null) {
                            done += e.getValue().offset();
                        }
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    // the group is not there yet
                }
                if (done >= fraction * total) {
                    System.out.printf("group %s committed %d of %d records of %s%n", group, done, total, Topics.EVENTS);
                    return;
                }
                Thread.sleep(100);
            }
        }
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
        // which windows differ from the requests on capstream.events (target and 1-minute window start)
        Map<String, Long> expected = expectedPerWindow(bootstrap, registry);
        Map<String, Long> seen = new java.util.TreeMap<>();
        latest.values().forEach(w -> seen.merge(w.getTarget() + " " + Instant.ofEpochMilli(w.getWindowStartMs()),
                (long) w.getRequests(), Long::sum));
        Set<String> keys = new java.util.TreeSet<>(expected.keySet());
        keys.addAll(seen.keySet());
        for (String k : keys) {
            long e = expected.getOrDefault(k, 0L);
            long got = seen.getOrDefault(k, 0L);
            if (e != got) {
                System.out.printf("window %s: %d requests on capstream.events, %d in its summary%n", k, e, got);
            }
        }
        System.out.printf("window summaries: %d windows, %d requests, late_dropped %d (%d s after start)%n",
                latest.size(), requests, late, (System.currentTimeMillis() - start) / 1000);
    }

    /** @return the request events on capstream.events per {@code target window-start} (1-minute windows) */
    static Map<String, Long> expectedPerWindow(String bootstrap, String registry) {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "group.id", "backlog-events-" + System.nanoTime(),
                "auto.offset.reset", "earliest", "isolation.level", "read_committed");
        Map<String, Long> perWindow = new java.util.TreeMap<>();
        try (KafkaConsumer<String, RunEvent> c = new KafkaConsumer<>(props, new StringDeserializer(),
                SpecificAvroSerde.forValue(RunEvent.class, registry).deserializer())) {
            c.subscribe(List.of(Topics.EVENTS));
            int empty = 0;
            while (empty < 5) {
                var records = c.poll(Duration.ofSeconds(1));
                empty = records.isEmpty() ? empty + 1 : 0;
                for (ConsumerRecord<String, RunEvent> r : records) {
                    if (r.value() != null && r.value().getPayload() instanceof RequestCompleted rc) {
                        long t = rc.getCompletedAtEpochMs();
                        perWindow.merge(rc.getTarget() + " " + Instant.ofEpochMilli(t - Math.floorMod(t, 60_000L)),
                                1L, Long::sum);
                    }
                }
            }
        }
        return perWindow;
    }
}

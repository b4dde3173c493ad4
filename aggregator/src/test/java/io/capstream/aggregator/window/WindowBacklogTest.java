package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.MODEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Windows on a backlog are the same as on a live feed. TopologyTestDriver has one partition per topic, so the
 * input partitions are modelled where they meet: the repartition topic, into which the re-keying task of each
 * input partition writes its records in its partition's order, with its progress in the headers
 * ({@code capstream.window.source}, {@code capstream.window.source-time}, {@code capstream.window.source-idle}).
 * A live feed interleaves the partitions by the time their events were written; a backlog interleaves them by
 * how fast each one is read, here adversarially (one partition 300 times faster in event time than another).
 */
class WindowBacklogTest {
    private static final String REGISTRY = "mock://window-backlog-test";
    private static final String APP = "window-backlog-test";
    private static final String REPARTITION = APP + "-" + WindowTopology.REPARTITION_NAME + "-repartition";
    /** A minute-aligned epoch ms. */
    private static final long T0 = 1_767_225_600_000L;
    private static final long HOUR = 3_600_000L;
    /** Key of the progress records ({@link RekeyProcessor#PROGRESS_KEY}). */
    private static final String PROGRESS_KEY = "~progress";

    /** One record as the re-keying task of input partition {@code source} writes it to the repartition topic. */
    private record Rekeyed(int source, String key, RunEvent value, long eventTime, long writtenAt, long sourceTime,
                           boolean idle) {
    }

    /**
     * Requests of 10 targets over one hour in 3 input partitions at different rates (one per 2 s, 5 s, 15 s),
     * each written up to 2 s after it completed (so within a partition up to 2 s out of order, less than the
     * grace), 5% failed; each partition ends with a heartbeat 5 minutes after the hour (closes the last windows).
     */
    private static List<List<Rekeyed>> partitions() {
        Random random = new Random(42);
        long[] periodMs = {2000, 5000, 15000};
        List<List<Rekeyed>> out = new ArrayList<>();
        for (int p = 0; p < periodMs.length; p++) {
            List<Rekeyed> records = new ArrayList<>();
            long max = Long.MIN_VALUE;
            int index = 0;
            for (long written = T0 + periodMs[p]; written < T0 + HOUR; written += periodMs[p]) {
                long completed = written - random.nextInt(2000);
                String target = "http://10.0.0." + (1 + random.nextInt(10)) + ":8000/v1";
                String run = "run-" + p + "-" + target.hashCode() % 3;
                Object payload = random.nextInt(20) == 0
                        ? RequestFailed.newBuilder().setRequestIndex(index).setPlannedContextTokens(3000)
                        .setTarget(target).setModel(MODEL).setErrorType("HTTPError").setCompletedAtEpochMs(completed)
                        .build()
                        : completed(index, target, completed, 50 + random.nextInt(950), 1000 + random.nextInt(4000),
                        10 + random.nextInt(200));
                index++;
                max = Math.max(max, completed);
                records.add(new Rekeyed(p, new WindowKey(target, MODEL, "le4096").encode(), event(run, written, payload),
                        completed, written, max, false));
            }
            long end = T0 + HOUR + 300_000;
            records.add(new Rekeyed(p, RekeyProcessor.HEARTBEAT_KEY, event("hb-" + p, end,
                    new Heartbeat("http://10.0.0.1:8000/v1", MODEL, Map.of(), null)), end, end, end, false));
            out.add(records);
        }
        return out;
    }

    private static RequestCompleted completed(int index, String target, long at, long ttftMs, long e2eMs, long tokens) {
        return RequestCompleted.newBuilder().setRequestIndex(index).setPlannedContextTokens(3000).setTarget(target)
                .setModel(MODEL).setTtftNs(1_000_000L * ttftMs).setTtfoNs(1_000_000L * ttftMs)
                .setE2eNs(1_000_000L * e2eMs).setPromptTokens(3000L).setCompletionTokens(tokens)
                .setOutputTokenSource("usage").setContentChunks((int) tokens).setCompletedAtEpochMs(at).build();
    }

    private static RunEvent event(String run, long emittedAt, Object payload) {
        return RunEvent.newBuilder().setRunId(run).setEventId(UUID.randomUUID().toString()).setWorkerId("w")
                .setEmittedAtMs(emittedAt).setPayload(payload).build();
    }

    /** Live: the partitions' records interleaved in the order they were written. */
    private static List<Rekeyed> live(List<List<Rekeyed>> partitions) {
        List<Rekeyed> all = new ArrayList<>();
        partitions.forEach(all::addAll);
        all.sort(Comparator.comparingLong(Rekeyed::writtenAt));
        return all;
    }

    /**
     * Backlog: read in turns of 150, 20 and 2 records (partition 0 runs ahead by minutes, then by most of the hour);
     * a partition that has been read to its end reports itself idle, as its re-keying task does.
     */
    private static List<Rekeyed> backlog(List<List<Rekeyed>> partitions) {
        int[] turn = {150, 20, 2};
        int[] next = new int[partitions.size()];
        List<Rekeyed> out = new ArrayList<>();
        boolean more = true;
        while (more) {
            more = false;
            for (int p = 0; p < partitions.size(); p++) {
                List<Rekeyed> records = partitions.get(p);
                if (next[p] >= records.size()) {
                    continue;
                }
                int to = Math.min(records.size(), next[p] + turn[p]);
                out.addAll(records.subList(next[p], to));
                next[p] = to;
                if (to == records.size()) {
                    Rekeyed last = records.get(to - 1);
                    out.add(new Rekeyed(p, PROGRESS_KEY, null, last.sourceTime(), 0,
                            last.sourceTime(), true));
                } else {
                    more = true;
                }
            }
        }
        return out;
    }

    /**
     * The partitions as written run after run (each run's requests over the whole hour, then the next run's): the
     * event time in a partition goes back to the hour's start at each run.
     */
    private static List<List<Rekeyed>> runAfterRun(List<List<Rekeyed>> partitions) {
        List<List<Rekeyed>> out = new ArrayList<>();
        for (List<Rekeyed> records : partitions) {
            List<Rekeyed> requests = new ArrayList<>(records.subList(0, records.size() - 1));
            requests.sort(Comparator.comparing((Rekeyed r) -> r.value().getRunId()).thenComparingLong(Rekeyed::writtenAt));
            List<Rekeyed> written = new ArrayList<>();
            long max = Long.MIN_VALUE;
            for (Rekeyed r : requests) {
                max = Math.max(max, r.eventTime());
                written.add(new Rekeyed(r.source(), r.key(), r.value(), r.eventTime(), r.writtenAt(), max, false));
            }
            written.add(records.get(records.size() - 1));
            out.add(written);
        }
        return out;
    }

    /** Runs the window topology over {@code records} (after each partition's first progress report). */
    private static Map<String, WindowSummary> summaries(List<Rekeyed> records, int partitions) {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), serde)), builder,
                WindowTopologyConfig.defaults(REGISTRY)); // 1 min windows, 10 s grace
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, Instant.ofEpochMilli(T0))) {
            TestInputTopic<String, RunEvent> in = driver.createInputTopic(REPARTITION, Serdes.String().serializer(),
                    serde.serializer());
            TestOutputTopic<String, WindowSummary> out = driver.createOutputTopic(Topics.SUMMARIES,
                    Serdes.String().deserializer(), SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());
            for (int p = 0; p < partitions; p++) { // each re-keying task's first report, within a second of its start
                in.pipeInput(record(new Rekeyed(p, PROGRESS_KEY, null, 0, 0, Long.MIN_VALUE, false)));
            }
            records.forEach(r -> in.pipeInput(record(r)));
            driver.advanceWallClockTime(Duration.ofSeconds(2)); // flushes the updates of windows that took late requests
            Map<String, WindowSummary> latest = new TreeMap<>();
            for (KeyValue<String, WindowSummary> kv : out.readKeyValuesToList()) {
                latest.put(kv.key, kv.value);
            }
            return latest;
        }
    }

    private static TestRecord<String, RunEvent> record(Rekeyed r) {
        RecordHeaders h = new RecordHeaders();
        h.add("capstream.window.source", ByteBuffer.allocate(4).putInt(r.source()).array());
        h.add("capstream.window.source-time", ByteBuffer.allocate(8).putLong(r.sourceTime()).array());
        if (r.idle()) {
            h.add("capstream.window.source-idle", new byte[] {1});
        }
        return new TestRecord<>(r.key(), r.value(), h, Math.max(0, r.eventTime()));
    }

    private static long requests(Map<String, WindowSummary> s) {
        return s.values().stream().mapToLong(WindowSummary::getRequests).sum();
    }

    @Test
    void aBacklogOfPartitionsReadAtDifferentSpeedsGivesTheLiveWindows() {
        List<List<Rekeyed>> partitions = partitions();
        long sent = partitions.stream().flatMap(List::stream).map(r -> r.value() == null ? null : r.value().getPayload())
                .filter(p -> p instanceof RequestFailed
                        || (p instanceof RequestCompleted c && RequestSamples.from(c).isPresent())).count();
        Map<String, WindowSummary> live = summaries(live(partitions), partitions.size());
        Map<String, WindowSummary> backlog = summaries(backlog(partitions), partitions.size());

        assertEquals(sent, requests(live), "the live feed's windows hold every request");
        assertEquals(requests(live), requests(backlog), "requests in the backlog's windows vs the live ones ("
                + backlog.values().stream().mapToLong(WindowSummary::getLateDropped).sum() + " late_dropped)");
        assertEquals(live.keySet(), backlog.keySet(), "the same windows");
        assertTrue(live.size() >= 500, "about 10 targets x 60 windows, got " + live.size());
        for (String key : live.keySet()) {
            assertEquals(live.get(key), backlog.get(key), "summary " + key);
        }
    }

    @Test
    void aBacklogWrittenRunAfterRunGivesTheLiveWindowsOnceTheUpdatesAreIn() {
        List<List<Rekeyed>> partitions = partitions();
        Map<String, WindowSummary> live = summaries(live(partitions), partitions.size());
        Map<String, WindowSummary> backlog = summaries(backlog(runAfterRun(partitions)), partitions.size());

        assertEquals(requests(live), requests(backlog), "requests in the backlog's windows (latest per key) vs live");
        assertEquals(live.keySet(), backlog.keySet(), "the same windows");
        for (String key : live.keySet()) {
            assertEquals(live.get(key), backlog.get(key), "summary " + key);
        }
    }
}

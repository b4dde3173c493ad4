import io.capstream.aggregator.report.ReportTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Sustained aggregation throughput of the report topology (exactly_once_v2, embedded broker, this
 * machine) and the delay from RunFinished to the report. Run by hand: bench/aggregation/run.sh.
 *
 * <p>Phase 1 (throughput): RUNS runs x REQUESTS request events are produced up front; the Streams
 * application starts and the time from RUNNING to the last report gives request events per second.
 * Phase 2 (latency): with the application idle, LATENCY_RUNS runs are produced one after the other
 * (RunStarted, requests, RunFinished); the delay from the broker's ack of RunFinished to the report's
 * arrival at a read_committed consumer is measured per run.
 *
 * <p>Before phase 1, bench.warmupRuns (default 600) runs go through the same topology in this JVM so that
 * the measured phases run JIT-compiled code, as a long-running aggregator does.
 *
 * <p>Arguments (all optional): runs requests latencyRuns streamThreads partitions. System properties:
 * bench.warmupRuns, bench.commitMs, bench.threads (print per-thread CPU).
 */
public final class AggregationBench {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1200;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int latencyRuns = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : StreamsSettings.defaultStreamThreads();
        int partitions = args.length > 4 ? Integer.parseInt(args[4]) : TopicSetup.DEFAULT_EVENT_PARTITIONS;
        String registry = "mock://bench";
        Path stateDir = Files.createTempDirectory("capstream-bench-state-");
        System.out.println("extra Streams properties: " + extraProps());
        System.out.printf("runs=%d requests/run=%d latencyRuns=%d streamThreads=%d partitions=%d commitMs=%d cores=%d"
                + " load=%.1f%n", runs, requests, latencyRuns, threads, partitions,
                Long.getLong("bench.commitMs", StreamsSettings.DEFAULT_COMMIT_INTERVAL_MS),
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bootstrap, Map.of(), partitions);
            Map<String, Object> producerProps = Map.of("bootstrap.servers", bootstrap, "acks", "all",
                    "enable.idempotence", "true", "linger.ms", "10", "batch.size", "262144", "compression.type", "lz4");
            ReportCollector reports = new ReportCollector(bootstrap, registry);
            reports.start();

            // Phase 0: warm-up (JIT) with the same topology in this JVM; not measured.
            int warmupRuns = Integer.getInteger("bench.warmupRuns", 600);
            if (Boolean.getBoolean("bench.countOnly")) {
                countBaseline(bootstrap, stateDir, runs, requests, producerProps, registry);
                reports.stop();
                return;
            }
            StreamsSettings settings = new StreamsSettings("capstream-bench", bootstrap, stateDir,
                    Long.getLong("bench.commitMs", StreamsSettings.DEFAULT_COMMIT_INTERVAL_MS), threads, -1,
                    10L * 1024 * 1024, extraProps());
            if (warmupRuns > 0) {
                KafkaStreams warm = new KafkaStreams(ReportTopology.build(ReportTopologyConfig.defaults(registry)),
                        settings.toProperties());
                warm.start();
                try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(producerProps,
                        new StringSerializer(), SpecificAvroSerde.forValue(RunEvent.class, registry).serializer())) {
                    for (int r = 0; r < warmupRuns; r++) {
                        for (RunEvent e : run("warmup-" + r, requests)) {
                            producer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(), e));
                        }
                    }
                }
                long w0 = System.nanoTime();
                while (reports.count() < warmupRuns) {
                    Thread.sleep(5);
                }
                System.out.printf("warm-up: %d runs in %.1f s%n", warmupRuns, (System.nanoTime() - w0) / 1e9);
                warm.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                        org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            }
            reports.reset();

            // Phase 1: produce everything up front.
            long t0 = System.nanoTime();
            try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                    SpecificAvroSerde.forValue(RunEvent.class, registry).serializer())) {
                for (int r = 0; r < runs; r++) {
                    for (RunEvent e : run("bench-" + r, requests)) {
                        producer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(), e));
                    }
                }
                producer.flush();
            }
            double produceS = (System.nanoTime() - t0) / 1e9;
            long requestEvents = (long) runs * requests;
            System.out.printf("produced %d request events (+%d run events) in %.2f s (%.0f events/s)%n",
                    requestEvents, 2L * runs, produceS, (requestEvents + 2.0 * runs) / produceS);

            KafkaStreams streams = new KafkaStreams(ReportTopology.build(ReportTopologyConfig.defaults(registry)),
                    settings.toProperties());
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
            long jit0 = jit.getTotalCompilationTime();
            long gc0 = gcMillis();
            Map<String, Double> threadCpu0 = threadCpuByName();
            long startCall = System.nanoTime();
            streams.start();
            while (streams.state() != KafkaStreams.State.RUNNING) {
                Thread.sleep(5);
            }
            long running = System.nanoTime();
            System.out.println("phase 1 starts at epoch ms " + System.currentTimeMillis());
            while (reports.count() < runs) {
                Thread.sleep(5);
            }
            long done = System.nanoTime();
            System.out.println("phase 1 ends at epoch ms " + System.currentTimeMillis());
            double s = (done - running) / 1e9;
            System.out.printf("THROUGHPUT: %d reports (%d request events) in %.2f s after RUNNING (%.2f s after start)"
                    + " = %.0f request events/s%n", runs, requestEvents, s, (done - startCall) / 1e9, requestEvents / s);
            // Sustained rate: the second half of the reports, after start-up and most of the JIT work.
            long[] arrivals = new long[runs];
            for (int r = 0; r < runs; r++) {
                arrivals[r] = reports.arrivalNs("bench-" + r);
            }
            java.util.Arrays.sort(arrivals);
            int half = runs / 2;
            if (runs >= 4) {
                double halfS = (arrivals[runs - 1] - arrivals[half - 1]) / 1e9;
                System.out.printf("SUSTAINED (second half: reports %d..%d) = %.0f request events/s%n", half + 1, runs,
                        (double) (runs - half) * requests / halfS);
            }
            double cpuS = (os.getProcessCpuTime() - cpu0) / 1e9;
            System.out.printf("during phase 1: JIT compilation %.2f s, GC %.2f s%n",
                    (jit.getTotalCompilationTime() - jit0) / 1e3, (gcMillis() - gc0) / 1e3);
            var tmx = java.lang.management.ManagementFactory.getThreadMXBean();
            double streamCpuS = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().contains("StreamThread")) {
                    streamCpuS += tmx.getThreadCpuTime(t.getId()) / 1e9;
                }
            }
            System.out.printf("CPU: whole process (broker + Streams + consumer) %.2f s = %.0f request events per CPU-second;"
                    + " stream threads %.2f s = %.0f request events per stream-thread CPU-second; load avg now %.1f%n",
                    cpuS, requestEvents / cpuS, streamCpuS, requestEvents / streamCpuS, os.getSystemLoadAverage());
            if (Boolean.getBoolean("bench.threads")) {
                Map<String, Double> byName = threadCpuByName();
                threadCpu0.forEach((k, v) -> byName.merge(k, -v, Double::sum));
                long gcMs = 0;
                for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                    gcMs += gc.getCollectionTime();
                }
                System.out.printf("  GC time (since JVM start) %.2f s, JIT compilation %.2f s%n", gcMs / 1e3,
                        java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime() / 1e3);
                byName.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(15)
                        .forEach(e -> System.out.printf("  thread CPU during phase 1 %6.2f s  %s%n", e.getValue(), e.getKey()));
            }
            reports.checkAll(runs, requests);

            // Phase 2: latency from RunFinished ack to report.
            List<Double> delays = new ArrayList<>();
            try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                    SpecificAvroSerde.forValue(RunEvent.class, registry).serializer())) {
                for (int r = 0; r < latencyRuns; r++) {
                    String id = "latency-" + r;
                    List<RunEvent> events = run(id, requests);
                    for (RunEvent e : events.subList(0, events.size() - 1)) {
                        producer.send(new ProducerRecord<>(Topics.EVENTS, id, e));
                    }
                    producer.flush();
                    producer.send(new ProducerRecord<>(Topics.EVENTS, id, events.get(events.size() - 1))).get();
                    long acked = System.nanoTime();
                    Long arrived;
                    while ((arrived = reports.arrivalNs(id)) == null) {
                        Thread.sleep(1);
                    }
                    delays.add((arrived - acked) / 1e6);
                }
            }
            List<Double> sorted = new ArrayList<>(delays);
            Collections.sort(sorted);
            if (!sorted.isEmpty()) {
                System.out.printf("LATENCY RunFinished->report over %d runs of %d requests: p50 %.1f ms, p95 %.1f ms,"
                        + " max %.1f ms%n", sorted.size(), requests, sorted.get((int) Math.ceil(0.5 * sorted.size()) - 1),
                        sorted.get((int) Math.ceil(0.95 * sorted.size()) - 1), sorted.get(sorted.size() - 1));
            }
            streams.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                    org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            streams.cleanUp();
            reports.stop();
        }
    }

    /**
     * Baseline for the same machine and moment: a per-key count (persistent store, exactly_once_v2,
     * same settings) over the same events, no decoding, no output. Prints events per second.
     */
    static void countBaseline(String bootstrap, Path stateDir, int runs, int requests, Map<String, Object> producerProps,
                              String registry) throws Exception {
        long total = (long) runs * (requests + 2);
        try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                SpecificAvroSerde.forValue(RunEvent.class, registry).serializer())) {
            for (int r = 0; r < runs; r++) {
                for (RunEvent e : run("bench-" + r, requests)) {
                    producer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(), e));
                }
            }
        }
        java.util.concurrent.atomic.AtomicLong seen = new java.util.concurrent.atomic.AtomicLong();
        org.apache.kafka.streams.StreamsBuilder b = new org.apache.kafka.streams.StreamsBuilder();
        b.stream(Topics.EVENTS, org.apache.kafka.streams.kstream.Consumed.with(
                        org.apache.kafka.common.serialization.Serdes.String(),
                        org.apache.kafka.common.serialization.Serdes.ByteArray()))
                .peek((k, v) -> seen.incrementAndGet())
                .groupByKey().count();
        StreamsSettings settings = new StreamsSettings("capstream-bench-count", bootstrap, stateDir,
                Long.getLong("bench.commitMs", StreamsSettings.DEFAULT_COMMIT_INTERVAL_MS), 1, -1, 10L * 1024 * 1024,
                extraProps());
        KafkaStreams streams = new KafkaStreams(b.build(), settings.toProperties());
        streams.start();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            Thread.sleep(5);
        }
        long t0 = System.nanoTime();
        while (seen.get() < total) {
            Thread.sleep(5);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("COUNT BASELINE: %d events counted in %.2f s = %.0f events/s (load %.1f)%n", total, s,
                total / s, java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        streams.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        streams.cleanUp();
    }

    /** @return Streams properties from system property bench.extra ("k=v,k=v"), for side-by-side variants */
    static Map<String, String> extraProps() {
        Map<String, String> out = new HashMap<>();
        String spec = System.getProperty("bench.extra", "");
        for (String kv : spec.split(",")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                out.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        return out;
    }

    static long gcMillis() {
        long ms = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += gc.getCollectionTime();
        }
        return ms;
    }

    static List<RunEvent> run(String runId, int n) {
        List<RunEvent> out = new ArrayList<>(n + 2);
        RunStarted s = RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel("bench-model").setEngine("capstream-sim")
                .setRequests(n).setConcurrency(16).setMaxTokens(64).setContextTokens(4096)
                .setPlannedContextTokens(new ArrayList<>(Collections.nCopies(n, 4096)))
                .setStartedAt("2026-08-01T12:00:00Z").setStartedAtEpochMs(1_785_585_600_000L).build();
        out.add(event(runId, "s", s));
        for (int i = 0; i < n; i++) {
            long ttft = 20_000_000L + (i * 7919L % 1000) * 100_000L;
            RequestCompleted c = RequestCompleted.newBuilder()
                    .setRequestIndex(i).setPlannedContextTokens(4096).setTarget("http://127.0.0.1:8000/v1")
                    .setModel("bench-model").setTtfoNs(ttft).setTtftNs(ttft).setE2eNs(ttft + 500_000_000L)
                    .setPromptTokens(4000L).setCompletionTokens(64L).setOutputTokenSource("usage")
                    .setContentChunks(64).setCompletedAtEpochMs(1_785_585_600_000L + i).build();
            out.add(event(runId, "r" + i, c));
        }
        RunFinished f = RunFinished.newBuilder().setWallClockNs(60_000_000_000L).setStartedAt("2026-08-01T12:00:00Z")
                .setFinishedAt("2026-08-01T12:01:00Z").setStartedAtEpochMs(1_785_585_600_000L)
                .setFinishedAtEpochMs(1_785_585_660_000L).setRequestsSent(n).build();
        out.add(event(runId, "f", f));
        return out;
    }

    static RunEvent event(String runId, String id, Object payload) {
        return RunEvent.newBuilder().setRunId(runId).setEventId(runId + "-" + id).setWorkerId("w0")
                .setEmittedAtMs(System.currentTimeMillis()).setPayload(payload).build();
    }

    /** @return CPU time, s, of every live thread, summed by name with digits replaced by # */
    static Map<String, Double> threadCpuByName() {
        var tmx = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Double> byName = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            byName.merge(t.getName().replaceAll("[0-9]+", "#"), tmx.getThreadCpuTime(t.getId()) / 1e9, Double::sum);
        }
        return byName;
    }

    /** Follows capstream.reports from the beginning (read_committed) and records when each report arrived. */
    static final class ReportCollector {
        private final KafkaConsumer<String, BenchmarkReport> consumer;
        private final Map<String, Long> arrival = new ConcurrentHashMap<>();
        /** Only what checkAll needs, not the report: 1,000-row reports are ~1 MB each on the heap. */
        private final Map<String, String> byId = new ConcurrentHashMap<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private Thread thread;

        ReportCollector(String bootstrap, String registry) {
            Map<String, Object> props = new HashMap<>();
            props.put("bootstrap.servers", bootstrap);
            props.put("isolation.level", "read_committed");
            consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                    SpecificAvroSerde.forValue(BenchmarkReport.class, registry).deserializer());
            List<TopicPartition> parts = consumer.partitionsFor(Topics.REPORTS).stream()
                    .map(p -> new TopicPartition(Topics.REPORTS, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
        }

        void start() {
            thread = new Thread(() -> {
                while (running.get()) {
                    for (ConsumerRecord<String, BenchmarkReport> r : consumer.poll(Duration.ofMillis(20))) {
                        arrival.putIfAbsent(r.key(), System.nanoTime());
                        BenchmarkReport rep = r.value();
                        byId.put(r.key(), rep.getCompleted() + "/" + rep.getProvenance().getComplete() + "/"
                                + rep.getMetrics().getTtftSamples());
                    }
                }
                consumer.close();
            }, "bench-reports");
            thread.setDaemon(true);
            thread.start();
        }

        void reset() {
            arrival.clear();
            byId.clear();
        }

        int count() {
            return arrival.size();
        }

        Long arrivalNs(String runId) {
            return arrival.get(runId);
        }

        void checkAll(int runs, int requests) {
            for (int r = 0; r < runs; r++) {
                String rep = byId.get("bench-" + r);
                if (!(requests + "/true/" + requests).equals(rep)) {
                    throw new IllegalStateException("bad report for bench-" + r + " (completed/complete/ttft samples): "
                            + rep);
                }
            }
            System.out.println("all " + runs + " reports complete with " + requests + " rows each");
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}

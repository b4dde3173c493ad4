package io.capstream.cli.report;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.aggregator.report.ReportChunks;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for runs' reports on a reports topic; the one waiter of {@code run}, {@code import} and
 * {@code replay}. Create it <em>before</em> the run starts: it attaches at the current end of every
 * partition (read_committed, as the aggregator writes with exactly-once), so it sees exactly the
 * reports published afterwards. A background thread starts following the topic at the first
 * {@link #expect}/{@link #await} and completes the future of each expected run id; reports of run
 * ids nobody expects are ignored. {@link #failWhen} stops every wait as soon as the aggregator that
 * should publish the reports has failed. Thread-safe; close to stop the thread.
 *
 * <p>Large reports arrive in pieces ({@code ReportChunks}): a report record with
 * {@code artifact_chunks > 0} and its artifact on the chunks topic. The waiter follows both topics,
 * keeps the chunks of expected run ids only, and completes the future with the report record whose
 * {@code artifact_json} holds the whole artifact, checked against the record's SHA-256. A record
 * that cannot be decoded is logged and skipped.
 */
public final class ReportWaiter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReportWaiter.class);

    /** Why no report can come any more (the aggregator failed); completes the futures exceptionally. */
    public static final class Stopped extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Stopped(String message) {
            super(message);
        }
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final String reportsTopic;
    private final Deserializer<BenchmarkReport> reportDeserializer;
    private final String chunksTopic;
    private final Deserializer<ReportChunk> chunkDeserializer;
    private final Map<String, CompletableFuture<BenchmarkReport>> waiting = new ConcurrentHashMap<>();
    /** Report records of expected runs whose chunks are not all in yet, by run id. */
    private final Map<String, BenchmarkReport> pending = new ConcurrentHashMap<>();
    /** Chunks of expected runs, by run id, then artifact digest. */
    private final Map<String, Map<String, ReportChunks.Assembly>> assemblies = new ConcurrentHashMap<>();
    /** How long attaching waits for the topic's partitions. */
    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(30);

    private final Thread thread;
    private volatile boolean running = true;
    private volatile Supplier<String> failure = () -> null;
    private volatile RuntimeException stopped;
    private boolean started;

    /**
     * A waiter on one reports topic without a chunks topic: reports published in one record only (a
     * large report's future completes exceptionally, naming the missing chunks topic). Assigns every
     * partition at its end (resolved now) without starting to read.
     *
     * @param consumerProps consumer settings (bootstrap servers, security); not null
     * @param topic         reports topic; not null
     * @param deserializer  report deserializer; not null
     * @throws IllegalStateException when the topic has no partitions within 30 s
     */
    public ReportWaiter(Map<String, Object> consumerProps, String topic, Deserializer<BenchmarkReport> deserializer) {
        this(consumerProps, topic, deserializer, null, null);
    }

    /**
     * Assigns every partition of both topics at their end (resolved now) without starting to read.
     *
     * @param consumerProps      consumer settings (bootstrap servers, security); not null
     * @param reportsTopic       reports topic; not null
     * @param reportDeserializer report deserializer; not null
     * @param chunksTopic        topic of the chunks of large reports, or null for none
     * @param chunkDeserializer  chunk deserializer; not null when {@code chunksTopic} is given
     * @throws IllegalStateException when a topic has no partitions within 30 s
     */
    public ReportWaiter(Map<String, Object> consumerProps, String reportsTopic,
                        Deserializer<BenchmarkReport> reportDeserializer, String chunksTopic,
                        Deserializer<ReportChunk> chunkDeserializer) {
        this.reportsTopic = Objects.requireNonNull(reportsTopic, "reportsTopic");
        this.reportDeserializer = Objects.requireNonNull(reportDeserializer, "reportDeserializer");
        this.chunksTopic = chunksTopic;
        this.chunkDeserializer = chunksTopic == null ? null : Objects.requireNonNull(chunkDeserializer, "chunkDeserializer");
        Map<String, Object> props = new HashMap<>(consumerProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        try {
            List<TopicPartition> parts = new ArrayList<>(TopicPartitions.await(consumer, reportsTopic, ATTACH_TIMEOUT));
            if (chunksTopic != null) {
                parts.addAll(TopicPartitions.await(consumer, chunksTopic, ATTACH_TIMEOUT));
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position); // resolve the end offsets now, before anything is produced
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(5));
            throw e;
        }
        thread = new Thread(this::loop, "capstream-report-waiter");
        thread.setDaemon(true);
    }

    /**
     * A waiter on {@link Topics#REPORTS} and {@link Topics#REPORT_CHUNKS} decoding with the registry
     * at {@code schemaRegistryUrl}.
     *
     * @param kafka             client settings with the bootstrap servers set; not null
     * @param schemaRegistryUrl registry URL for decoding reports; not null
     * @param registryClient    registry client settings (credentials, timeouts); not null
     * @return the attached waiter
     * @throws IllegalStateException when a topic has no partitions within 30 s
     */
    public static ReportWaiter forReports(KafkaClientProperties kafka, String schemaRegistryUrl,
                                          RegistryClientConfig registryClient) {
        return new ReportWaiter(kafka.consumer(Map.of()), Topics.REPORTS,
                SpecificAvroSerde.forValue(BenchmarkReport.class, schemaRegistryUrl, registryClient).deserializer(),
                Topics.REPORT_CHUNKS,
                SpecificAvroSerde.forValue(ReportChunk.class, schemaRegistryUrl, registryClient).deserializer());
    }

    /**
     * Stops every wait once {@code why} returns non-null (checked between polls, about every 200 ms):
     * pending and later futures complete exceptionally with {@link Stopped} carrying that text.
     *
     * @param why e.g. the in-process aggregator's failure; returns null while reports can still come
     * @return this
     */
    public ReportWaiter failWhen(Supplier<String> why) {
        this.failure = why;
        return this;
    }

    /**
     * Registers interest in a run's report. Call before producing the run's events when the run id
     * is known; otherwise any time after creating the waiter (reports published since then count).
     *
     * @param runId run id (the report's key)
     * @return completes with the first report for that run id read after the first of these calls (reports
     *         read earlier for unexpected run ids are not kept); exceptionally with {@link Stopped} when
     *         {@link #failWhen} reports a failure, or with the consumer's error. Calling it again for the same
     *         run id returns the same future, completed or not, until {@link #await} returned it or the run
     *         was {@link #forget forgotten}: a report that arrived in between is not lost
     */
    public CompletableFuture<BenchmarkReport> expect(String runId) {
        CompletableFuture<BenchmarkReport> f = waiting.computeIfAbsent(runId, k -> new CompletableFuture<>());
        startIfNeeded();
        RuntimeException s = stopped;
        if (s != null && !f.isDone()) {
            waiting.remove(runId, f);
            f.completeExceptionally(s);
        }
        return f;
    }

    /**
     * Waits for the report of {@code runId} (expecting it if not done yet).
     *
     * @param runId   the run id (record key)
     * @param timeout how long to wait
     * @return the report, or empty when none arrived in time or {@link #failWhen} reported a failure
     * @throws IllegalStateException when the consumer failed
     * @throws InterruptedException  when interrupted
     */
    public Optional<BenchmarkReport> await(String runId, Duration timeout) throws InterruptedException {
        CompletableFuture<BenchmarkReport> f = expect(runId);
        try {
            BenchmarkReport report = f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            waiting.remove(runId, f);
            return Optional.of(report);
        } catch (TimeoutException e) {
            forget(runId);
            return Optional.empty();
        } catch (ExecutionException e) {
            waiting.remove(runId, f);
            if (e.getCause() instanceof Stopped) {
                return Optional.empty();
            }
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("report consumer failed: " + e.getCause(), e.getCause());
        }
    }

    /** @param runId run id no longer waited for (its chunks read so far are dropped) */
    public void forget(String runId) {
        waiting.remove(runId);
        pending.remove(runId);
        assemblies.remove(runId);
    }


    private synchronized void startIfNeeded() {
        if (!started && running) {
            started = true;
            thread.start();
        }
    }

    private void loop() {
        try {
            while (running) {
                String why = failure.get();
                if (why != null) {
                    stopAll(new Stopped(why));
                    return;
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || r.value() == null) {
                        continue;
                    }
                    if (r.topic().equals(reportsTopic)) {
                        onReport(r);
                    } else {
                        onChunk(r);
                    }
                }
                // chunks of runs forgotten (timed out) while a poll was being handled
                assemblies.keySet().retainAll(waiting.keySet());
                pending.keySet().retainAll(waiting.keySet());
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("report consumer failed", e);
            stopAll(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void onReport(ConsumerRecord<String, byte[]> r) {
        String runId = r.key();
        if (!awaited(runId)) {
            return;
        }
        BenchmarkReport report;
        try {
            report = reportDeserializer.deserialize(r.topic(), r.headers(), r.value());
        } catch (RuntimeException e) {
            LOG.warn("skipping an undecodable report record for run {} ({}-{}@{}): {}", runId, r.topic(),
                    r.partition(), r.offset(), e.toString());
            return;
        }
        if (!ReportChunks.isChunked(report)) {
            complete(runId, report);
        } else if (chunksTopic == null) {
            CompletableFuture<BenchmarkReport> f = waiting.remove(runId);
            if (f != null) {
                f.completeExceptionally(new IllegalStateException("the report of run " + runId + " is in "
                        + report.getArtifactChunks() + " chunks, and this waiter reads no chunks topic"));
            }
        } else {
            pending.put(runId, report);
            tryAssemble(runId);
        }
    }

    private void onChunk(ConsumerRecord<String, byte[]> r) {
        int bar = r.key().lastIndexOf('|');
        String runId = bar < 0 ? r.key() : r.key().substring(0, bar);
        if (!awaited(runId)) {
            return; // not decoded: chunks of other runs, and of runs whose report is in, are skipped cheaply
        }
        ReportChunk chunk;
        try {
            chunk = chunkDeserializer.deserialize(r.topic(), r.headers(), r.value());
        } catch (RuntimeException e) {
            LOG.warn("skipping an undecodable report chunk {} ({}-{}@{}): {}", r.key(), r.topic(), r.partition(),
                    r.offset(), e.toString());
            return;
        }
        if (!runId.equals(chunk.getRunId())) {
            return;
        }
        assemblies.computeIfAbsent(runId, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(chunk.getArtifactSha256(), k -> ReportChunks.Assembly.forChunk(chunk))
                .add(chunk);
        tryAssemble(runId);
    }

    /** Completes the run's future once its pending report record and all of its chunks are in. */
    private void tryAssemble(String runId) {
        BenchmarkReport report = pending.get(runId);
        Map<String, ReportChunks.Assembly> byDigest = assemblies.get(runId);
        ReportChunks.Assembly assembly = report == null || byDigest == null ? null
                : byDigest.get(report.getArtifactSha256());
        if (assembly == null || !assembly.complete()) {
            return;
        }
        pending.remove(runId);
        assemblies.remove(runId);
        String text;
        try {
            text = assembly.text();
        } catch (IllegalStateException e) {
            CompletableFuture<BenchmarkReport> f = waiting.remove(runId);
            if (f != null) {
                f.completeExceptionally(e);
            }
            return;
        }
        complete(runId, ReportChunks.withArtifact(report, text));
    }

    /** @return whether a report of the run id is expected and has not arrived yet */
    private boolean awaited(String runId) {
        CompletableFuture<BenchmarkReport> f = waiting.get(runId);
        return f != null && !f.isDone();
    }

    /**
     * Completes the run's future and keeps it: a report that arrives before the caller gets to {@link #await}
     * (e.g. while the run's server metrics are still being sent) is there when it does.
     */
    private void complete(String runId, BenchmarkReport report) {
        CompletableFuture<BenchmarkReport> f = waiting.get(runId);
        if (f != null) {
            f.complete(report);
        }
    }

    private void stopAll(RuntimeException why) {
        stopped = why;
        for (String id : List.copyOf(waiting.keySet())) {
            CompletableFuture<BenchmarkReport> f = waiting.get(id);
            if (f != null && f.completeExceptionally(why)) {
                waiting.remove(id, f);
            }
        }
    }

    @Override
    public void close() {
        boolean wasStarted;
        synchronized (this) {
            running = false;
            wasStarted = started;
        }
        if (!wasStarted) {
            consumer.close(Duration.ofSeconds(5));
            return;
        }
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

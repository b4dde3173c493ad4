package io.capstream.cli.report;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
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

    private final KafkaConsumer<String, BenchmarkReport> consumer;
    private final Map<String, CompletableFuture<BenchmarkReport>> waiting = new ConcurrentHashMap<>();
    /** How long attaching waits for the topic's partitions. */
    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(30);

    private final Thread thread;
    private volatile boolean running = true;
    private volatile Supplier<String> failure = () -> null;
    private volatile RuntimeException stopped;
    private boolean started;

    /**
     * Assigns every partition of the topic at its end (resolved now) without starting to read.
     *
     * @param consumerProps consumer settings (bootstrap servers, security); not null
     * @param topic         reports topic
     * @param deserializer  report deserializer
     */
    public ReportWaiter(Map<String, Object> consumerProps, String topic, Deserializer<BenchmarkReport> deserializer) {
        Map<String, Object> props = new HashMap<>(consumerProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), deserializer);
        try {
            List<TopicPartition> parts = partitionsOf(consumer, topic, ATTACH_TIMEOUT);
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
     * A waiter on {@link Topics#REPORTS} decoding with the registry at {@code schemaRegistryUrl}.
     *
     * @param kafka             client settings with the bootstrap servers set
     * @param schemaRegistryUrl registry URL for decoding reports
     * @param registryClient    registry client settings (credentials, timeouts)
     * @return the attached waiter
     */
    public static ReportWaiter forReports(KafkaClientProperties kafka, String schemaRegistryUrl,
                                          RegistryClientConfig registryClient) {
        return new ReportWaiter(kafka.consumer(Map.of()), Topics.REPORTS,
                SpecificAvroSerde.forValue(BenchmarkReport.class, schemaRegistryUrl, registryClient).deserializer());
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
     * @return completes with the first report for that run id read after this call (reports read
     *         earlier for unexpected run ids are not kept); exceptionally with {@link Stopped} when
     *         {@link #failWhen} reports a failure, or with the consumer's error
     */
    public CompletableFuture<BenchmarkReport> expect(String runId) {
        CompletableFuture<BenchmarkReport> f = waiting.computeIfAbsent(runId, k -> new CompletableFuture<>());
        startIfNeeded();
        RuntimeException s = stopped;
        if (s != null) {
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
            return Optional.of(f.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            forget(runId);
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Stopped) {
                return Optional.empty();
            }
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("report consumer failed: " + e.getCause(), e.getCause());
        }
    }

    /** @param runId run id no longer waited for */
    public void forget(String runId) {
        waiting.remove(runId);
    }

    /**
     * The partitions of {@code topic}, waiting while the cluster does not know them yet (a topic
     * created a moment ago has no partition metadata at first).
     *
     * @throws IllegalStateException when the topic has no partitions after {@code timeout}
     */
    private static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("topic " + topic + " has no partitions on the cluster after "
                        + timeout.toSeconds() + " s (does it exist?)");
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
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
                for (ConsumerRecord<String, BenchmarkReport> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || r.value() == null) {
                        continue;
                    }
                    CompletableFuture<BenchmarkReport> f = waiting.remove(r.key());
                    if (f != null) {
                        f.complete(r.value());
                    }
                }
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

    private void stopAll(RuntimeException why) {
        stopped = why;
        for (String id : List.copyOf(waiting.keySet())) {
            CompletableFuture<BenchmarkReport> f = waiting.remove(id);
            if (f != null) {
                f.completeExceptionally(why);
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

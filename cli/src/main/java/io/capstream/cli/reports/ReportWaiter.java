package io.capstream.cli.reports;

import io.capstream.schemas.avro.BenchmarkReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a reports topic from its current end (read_committed) on a background thread and
 * completes the future of each run id that a caller {@link #expect expects}. Reports of run ids
 * nobody expects are ignored. Thread-safe; close to stop the thread.
 */
public final class ReportWaiter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReportWaiter.class);

    private final KafkaConsumer<String, BenchmarkReport> consumer;
    private final Map<String, CompletableFuture<BenchmarkReport>> waiting = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Assigns every partition of the topic at its end and starts following it.
     *
     * @param consumerProps consumer settings (bootstrap servers, security); not null
     * @param topic         reports topic
     * @param deserializer  report deserializer
     */
    public ReportWaiter(Map<String, Object> consumerProps, String topic, Deserializer<BenchmarkReport> deserializer) {
        Map<String, Object> props = new java.util.HashMap<>(consumerProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), deserializer);
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // resolve the end offsets now, before anything is produced
        thread = new Thread(this::loop, "capstream-report-waiter");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Registers interest in a run's report. Call before producing the run's events.
     *
     * @param runId run id (the report's key)
     * @return completes with the first report for that run id seen after this call
     */
    public CompletableFuture<BenchmarkReport> expect(String runId) {
        return waiting.computeIfAbsent(runId, k -> new CompletableFuture<>());
    }

    /** @param runId run id no longer waited for */
    public void forget(String runId) {
        waiting.remove(runId);
    }

    private void loop() {
        try {
            while (running) {
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
            waiting.values().forEach(f -> f.completeExceptionally(e));
        } finally {
            consumer.close();
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

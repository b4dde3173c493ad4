package io.capstream.cli.report;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Waits for one run's report on {@code capstream.reports}. Open it <em>before</em> the run starts:
 * it positions itself at the current end of the topic, so it sees exactly the reports published
 * afterwards (read_committed, as the aggregator writes with exactly-once). Not thread-safe.
 */
public final class ReportAwaiter implements AutoCloseable {
    private final KafkaConsumer<String, BenchmarkReport> consumer;

    /**
     * @param kafka             client settings with the bootstrap servers set
     * @param schemaRegistryUrl registry URL for decoding reports
     * @param registryClient    registry client settings (credentials, timeouts)
     */
    public ReportAwaiter(KafkaClientProperties kafka, String schemaRegistryUrl, RegistryClientConfig registryClient) {
        SpecificAvroSerde<BenchmarkReport> serde = SpecificAvroSerde.forValue(BenchmarkReport.class, schemaRegistryUrl,
                registryClient);
        consumer = new KafkaConsumer<>(kafka.consumer(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")),
                new StringDeserializer(), serde.deserializer());
        List<TopicPartition> parts = consumer.partitionsFor(Topics.REPORTS, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // resolve the end offsets now, before any report can be written
    }

    /**
     * Polls until the report of {@code runId} arrives.
     *
     * @param runId   the run id (record key)
     * @param timeout how long to wait
     * @param failure  checked between polls: a non-null value (why no report can come) stops the wait
     * @return the report, or empty when none arrived in time or {@code failure} reported a problem
     */
    public Optional<BenchmarkReport> await(String runId, Duration timeout, Supplier<String> failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && failure.get() == null) {
            for (ConsumerRecord<String, BenchmarkReport> rec : consumer.poll(Duration.ofMillis(200))) {
                if (runId.equals(rec.key()) && rec.value() != null) {
                    return Optional.of(rec.value());
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}

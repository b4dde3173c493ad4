package io.capstream.cli.report;

import io.capstream.schemas.time.CapClock;
import io.capstream.schemas.text.DurationLabel;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from the beginning up to its end offsets at the time of the call (read_committed,
 * no consumer group), handing each record's key and raw value to a callback in partition order.
 */
public final class TopicHistory {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicHistory() {
    }

    /**
     * @param consumerProps consumer settings (bootstrap servers, security); not null
     * @param topic         topic to read
     * @param onRecord      receives (key, value bytes); values may be null (tombstones)
     * @return number of records read
     * @throws IllegalStateException when the topic does not exist or stops making progress for 30 s
     */
    public static long read(Map<String, Object> consumerProps, String topic, BiConsumer<String, byte[]> onRecord) {
        Map<String, Object> props = new HashMap<>(consumerProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            return read(consumer, topic, onRecord, CapClock.system());
        }
    }

    /**
     * As {@link #read(Map, String, BiConsumer)} with a given consumer (not closed here).
     *
     * @param consumer a consumer without a group, read_committed; not null
     * @param topic    topic to read
     * @param onRecord receives (key, value bytes); values may be null (tombstones)
     * @param clock    the clock of the 30 s without progress; not null
     * @return number of records read
     * @throws IllegalStateException when the topic does not exist or stops making progress for 30 s on the clock
     */
    static long read(Consumer<String, byte[]> consumer, String topic, BiConsumer<String, byte[]> onRecord,
                     CapClock clock) {
        long count = 0;
        var infos = consumer.partitionsFor(topic, TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        List<TopicPartition> parts = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        Map<TopicPartition, Long> end = consumer.endOffsets(parts, TIMEOUT);
        long lastProgress = clock.nanoTime();
        while (parts.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < end.get(tp))) {
            var records = consumer.poll(Duration.ofMillis(500));
            if (!records.isEmpty()) {
                lastProgress = clock.nanoTime();
            } else if (clock.nanoTime() - lastProgress > TIMEOUT.toNanos()) {
                throw new IllegalStateException("reading " + topic + " made no progress for " + DurationLabel.of(TIMEOUT));
            }
            for (ConsumerRecord<String, byte[]> r : records) {
                if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                    onRecord.accept(r.key(), r.value());
                    count++;
                }
            }
        }
        return count;
    }
}
